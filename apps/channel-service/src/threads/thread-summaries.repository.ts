import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { THREAD_SUMMARY_COLUMNS, ThreadSummary, ThreadSummaryRow, toThreadSummary } from './thread-summary.entity';

export type NewThreadSummary = Omit<ThreadSummary, 'createdAt'>;

/**
 * Written only while the channel's content epoch is still the one read before the thread's
 * messages (`$9`): FOR SHARE waits for a redaction in progress and then sees its new epoch, so a
 * summary written from content redacted meanwhile is never stored (DESIGN §10).
 */
const UPSERT_SQL = `
  INSERT INTO thread_summaries (channel_id, correlation_id, text, annotations, first_seq, last_seq, message_count, closed_by)
  SELECT $1, $2, $3, $4, $5, $6, $7, $8
  FROM channels c WHERE c.id = $1 AND c.content_epoch = $9::bigint
  FOR SHARE OF c
  ON CONFLICT (channel_id, correlation_id) DO UPDATE
    SET text = EXCLUDED.text, annotations = EXCLUDED.annotations, first_seq = EXCLUDED.first_seq,
        last_seq = EXCLUDED.last_seq, message_count = EXCLUDED.message_count, closed_by = EXCLUDED.closed_by,
        created_at = now()
    WHERE thread_summaries.last_seq <= EXCLUDED.last_seq
  RETURNING ${THREAD_SUMMARY_COLUMNS}`;

const EPOCH_SQL = `SELECT content_epoch FROM channels WHERE id = $1`;

const FIND_SQL = `SELECT ${THREAD_SUMMARY_COLUMNS} FROM thread_summaries WHERE channel_id = $1 AND correlation_id = $2`;

@Injectable()
export class ThreadSummariesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores the thread's summary, replacing an older one (a thread closed again, e.g. DONE after a
   * HANDOFF). A summary covering fewer messages never replaces a newer one, so two instances
   * racing on the same thread converge on the summary of the longest thread. Returns the row as
   * stored (which may be the newer one that won), or null when the content epoch moved since
   * `contentEpoch` was read (a redaction: the thread is due again and summarised anew).
   */
  async upsert(s: NewThreadSummary, contentEpoch: string): Promise<ThreadSummary | null> {
    const rows: ThreadSummaryRow[] = await this.db.query(
      UPSERT_SQL,
      [s.channelId, s.correlationId, s.text, JSON.stringify(s.annotations), s.firstSeq, s.lastSeq, s.messageCount, s.closedBy, contentEpoch],
    );
    if (rows[0]) return toThreadSummary(rows[0]);
    if ((await this.contentEpoch(s.channelId)) !== contentEpoch) return null;
    return this.find(s.channelId, s.correlationId);
  }

  /** The channel's content epoch (DESIGN §10), read before the messages a summary is written from; null when the channel is gone. */
  async contentEpoch(channelId: string): Promise<string | null> {
    const rows = await this.db.query<{ content_epoch: string }>(EPOCH_SQL, [channelId]);
    return rows[0] ? String(rows[0].content_epoch) : null;
  }

  async find(channelId: string, correlationId: string): Promise<ThreadSummary | null> {
    const rows: ThreadSummaryRow[] = await this.db.query(
      FIND_SQL,
      [channelId, correlationId],
    );
    return rows[0] ? toThreadSummary(rows[0]) : null;
  }
}
