import { Injectable } from '@nestjs/common';
import { CLOSED_THREAD_STATUSES, ThreadStatus } from '@qhorus/api';
import { OpenThreadSeed, ThreadType } from '@qhorus/blocks-channel-summary';
import { Database } from '../database/database';
import { Thread, THREAD_COLUMNS, ThreadRow, toThread } from './thread.entity';
import { qualifiedColumns } from '../database/column-list';

/** An inbox entry: an open thread the caller owes, or an untargeted open request from someone else. */
export interface InboxRow extends ThreadRow {
  channel: string;
  /** The request's text; null when it was redacted (DESIGN §10). */
  content: string | null;
  redacted_at: Date | null;
  redacted_by: string | null;
  redaction_reason: string | null;
}

/** An inbox entry as the service reads it: the thread, its channel, and the request's text or its redaction. */
export type InboxEntry = Thread & { channel: string; content: string | null; redaction: { at: Date; by: string; reason: string } | null };

const PREFIXED_COLUMNS = qualifiedColumns('t', THREAD_COLUMNS);
const CLOSED_LIST = CLOSED_THREAD_STATUSES.map((s) => `'${s}'`).join(', ');
/** The partial-index predicate of threads_summary_due_idx (the migration's text). */
const SUMMARY_DUE = `t.status IN (${CLOSED_LIST}) AND (t.summarised_seq IS NULL OR t.summarised_seq < t.closed_seq)`;

// Rows with a NULL status are correlation ids without a thread: never listed.
const LIST_SQL = `
  SELECT ${THREAD_COLUMNS} FROM threads
  WHERE channel_id = $1 AND status IS NOT NULL AND opened_seq > $2
  ORDER BY opened_seq LIMIT $3`;

const LIST_BY_STATUS_SQL = `
  SELECT ${THREAD_COLUMNS} FROM threads
  WHERE channel_id = $1 AND status IS NOT NULL AND status = $4 AND opened_seq > $2
  ORDER BY opened_seq LIMIT $3`;

const FIND_SQL = `SELECT ${THREAD_COLUMNS} FROM threads WHERE channel_id = $1 AND correlation_id = $2 AND status IS NOT NULL`;

// Two index scans (threads_inbox_owner_idx, threads_inbox_untargeted_idx), each bounded, merged
// oldest first; `total` counts every obligation on the same indexes, so a cut page says so. $2: the channels the caller may read (ChannelsService decides which).
const OWED = `status = 'open' AND owner IS NOT NULL AND owner = $1 AND channel_id = ANY($2::bigint[])`;
const UNTARGETED = `status = 'open' AND owner IS NULL AND opener <> $1 AND channel_id = ANY($2::bigint[])`;
const INBOX_SQL = `
  SELECT ${PREFIXED_COLUMNS}, c.name AS channel, m.content, m.redacted_at, m.redacted_by, m.redaction_reason,
         (SELECT count(*) FROM threads WHERE ${OWED}) + (SELECT count(*) FROM threads WHERE ${UNTARGETED}) AS total FROM (
    (SELECT * FROM threads WHERE ${OWED} ORDER BY opened_at LIMIT $3)
    UNION ALL
    (SELECT * FROM threads WHERE ${UNTARGETED} ORDER BY opened_at LIMIT $3)
  ) t
  JOIN channels c ON c.id = t.channel_id
  JOIN messages m ON m.channel_id = t.channel_id AND m.seq = t.opened_seq
  ORDER BY t.opened_at, c.name, t.opened_seq LIMIT $3`;

const DUE_SQL = `
  SELECT t.channel_id, t.correlation_id FROM threads t
  WHERE ${SUMMARY_DUE}
    AND (t.summary_error_at IS NULL OR t.summary_error_at < now() - make_interval(secs => $1::double precision / 1000))
  ORDER BY t.closed_seq LIMIT $2`;

const FIND_DUE_SQL = `SELECT ${PREFIXED_COLUMNS} FROM threads t WHERE t.channel_id = $1 AND t.correlation_id = $2 AND ${SUMMARY_DUE}`;

const MARK_SUMMARISED_SQL = `
  UPDATE threads t SET summarised_seq = GREATEST(COALESCE(t.summarised_seq, 0), $3), summary_error = NULL, summary_error_at = NULL
  WHERE t.channel_id = $1 AND t.correlation_id = $2
  RETURNING ${SUMMARY_DUE} AS due_again`;

const RECORD_ERROR_SQL = `UPDATE threads SET summary_error = $3, summary_error_at = now() WHERE channel_id = $1 AND correlation_id = $2`;

// Threads open as of seq $2: opened (or last reopened) by then and not closed by then. The newest
// $3 of them (threads_channel_opened_idx, walked backwards) and those named in $4, with their
// opening message's topic and content; `total` counts them all.
const OPEN_AS_OF_SQL = `
  WITH open_then AS (
    SELECT t.correlation_id, t.type, t.opener, t.opened_seq, t.owner, t.opened_at FROM threads t
    WHERE t.channel_id = $1 AND t.status IS NOT NULL AND t.opened_seq <= $2 AND (t.status = 'open' OR t.closed_seq > $2)
  )
  SELECT o.*, m.topic, m.content, (SELECT count(*) FROM open_then) AS total FROM (
    (SELECT * FROM open_then ORDER BY opened_seq DESC LIMIT $3)
    UNION
    (SELECT * FROM open_then WHERE correlation_id = ANY($4::text[]))
  ) o JOIN messages m ON m.channel_id = $1 AND m.seq = o.opened_seq`;

/** Reads of the durable thread index; the post statement writes it (thread-upsert.ts). */
@Injectable()
export class ThreadsRepository {
  constructor(private readonly db: Database) {}

  /** A channel's threads opened after `afterSeq`, oldest first, optionally of one status. */
  async list(channelId: string, status: ThreadStatus | null, afterSeq: number, limit: number): Promise<Thread[]> {
    const rows: ThreadRow[] = status
      ? await this.db.query(LIST_BY_STATUS_SQL, [channelId, afterSeq, limit, status])
      : await this.db.query(LIST_SQL, [channelId, afterSeq, limit]);
    return rows.map(toThread);
  }

  /**
   * The threads open as of `throughSeq`, as the summary state's open-thread entries (the opening
   * message's topic and content): the newest `newest` and every one named in `correlationIds`,
   * and how many are open in all (for a summary state past its cap).
   */
  async openAsOf(channelId: string, throughSeq: number, newest: number, correlationIds: readonly string[]): Promise<{ threads: OpenThreadSeed[]; total: number }> {
    const rows: { correlation_id: string; type: string; opener: string; opened_seq: string; owner: string | null; opened_at: Date; topic: string; content: string; total: string }[] =
      await this.db.query(OPEN_AS_OF_SQL, [channelId, throughSeq, newest, correlationIds]);
    const threads = rows.map((r) => ({
      correlationId: r.correlation_id,
      type: r.type as ThreadType,
      sender: r.opener,
      seq: Number(r.opened_seq),
      target: r.owner,
      topic: r.topic,
      at: r.opened_at,
      text: r.content,
    }));
    return { threads, total: rows.length > 0 ? Number(rows[0].total) : 0 };
  }

  async find(channelId: string, correlationId: string): Promise<Thread | null> {
    const rows: ThreadRow[] = await this.db.query(FIND_SQL, [channelId, correlationId]);
    return rows[0] ? toThread(rows[0]) : null;
  }

  /** Open obligations of `agent` in the given channels, oldest first, at most `limit`; `total`: how many there are in all. */
  async inbox(agent: string, channelIds: string[], limit: number): Promise<{ items: InboxEntry[]; total: number }> {
    if (channelIds.length === 0) return { items: [], total: 0 };
    const rows: (InboxRow & { total: string })[] = await this.db.query(INBOX_SQL, [agent, channelIds, limit]);
    return {
      items: rows.map((r) => ({
        ...toThread(r),
        channel: r.channel,
        content: r.redacted_at === null ? r.content : null,
        redaction: r.redacted_at === null ? null : { at: r.redacted_at, by: r.redacted_by ?? '', reason: r.redaction_reason ?? '' },
      })),
      total: rows.length > 0 ? Number(rows[0].total) : 0,
    };
  }

  /** Closed threads without a summary of their last close (skipping recent failures), oldest close first. */
  async dueForSummary(errorBackoffMs: number, limit: number): Promise<{ channelId: string; correlationId: string }[]> {
    const rows: { channel_id: string; correlation_id: string }[] = await this.db.query(DUE_SQL, [errorBackoffMs, limit]);
    return rows.map((r) => ({ channelId: String(r.channel_id), correlationId: r.correlation_id }));
  }

  /** The thread when it is closed and its summary is due; null otherwise. */
  async findDueForSummary(channelId: string, correlationId: string): Promise<Thread | null> {
    const rows: ThreadRow[] = await this.db.query(FIND_DUE_SQL, [channelId, correlationId]);
    return rows[0] ? toThread(rows[0]) : null;
  }

  /** Records that the stored summary covers the close at `closedSeq`; returns whether the thread is due again (it was reopened and closed again meanwhile). */
  async markSummarised(channelId: string, correlationId: string, closedSeq: number): Promise<boolean> {
    const rows: { due_again: boolean }[] = await this.db.query(MARK_SUMMARISED_SQL, [channelId, correlationId, closedSeq]);
    return rows[0]?.due_again === true;
  }

  async recordSummaryError(channelId: string, correlationId: string, message: string): Promise<void> {
    await this.db.query(RECORD_ERROR_SQL, [channelId, correlationId, message]);
  }
}
