import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { THREAD_SUMMARY_COLUMNS, ThreadSummary, ThreadSummaryRow, toThreadSummary } from './thread-summary.entity';

export type NewThreadSummary = Omit<ThreadSummary, 'createdAt'>;

const UPSERT_SQL = `
  INSERT INTO thread_summaries (channel_id, correlation_id, text, annotations, first_seq, last_seq, message_count, closed_by)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (channel_id, correlation_id) DO UPDATE
    SET text = EXCLUDED.text, annotations = EXCLUDED.annotations, first_seq = EXCLUDED.first_seq,
        last_seq = EXCLUDED.last_seq, message_count = EXCLUDED.message_count, closed_by = EXCLUDED.closed_by,
        created_at = now()
    WHERE thread_summaries.last_seq <= EXCLUDED.last_seq
  RETURNING ${THREAD_SUMMARY_COLUMNS}`;

const FIND_SQL = `SELECT ${THREAD_SUMMARY_COLUMNS} FROM thread_summaries WHERE channel_id = $1 AND correlation_id = $2`;

@Injectable()
export class ThreadSummariesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores the thread's summary, replacing an older one (a thread closed again, e.g. DONE after a
   * HANDOFF). A summary covering fewer messages never replaces a newer one, so two instances
   * racing on the same thread converge on the summary of the longest thread. Returns the row as
   * stored (which may be the newer one that won).
   */
  async upsert(s: NewThreadSummary): Promise<ThreadSummary> {
    const rows: ThreadSummaryRow[] = await this.db.query(
      UPSERT_SQL,
      [s.channelId, s.correlationId, s.text, JSON.stringify(s.annotations), s.firstSeq, s.lastSeq, s.messageCount, s.closedBy],
    );
    if (rows[0]) return toThreadSummary(rows[0]);
    return (await this.find(s.channelId, s.correlationId))!;
  }

  async find(channelId: string, correlationId: string): Promise<ThreadSummary | null> {
    const rows: ThreadSummaryRow[] = await this.db.query(
      FIND_SQL,
      [channelId, correlationId],
    );
    return rows[0] ? toThreadSummary(rows[0]) : null;
  }
}
