import { Injectable } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { Database } from '../database/database';
import { transitionTableJson } from '../threads/thread-transitions';
import { MESSAGE_COLUMNS, MessageRow } from './message.entity';

export interface NewMessage {
  type: MessageType;
  sender: string;
  content: string;
  topic: string;
  correlationId: string | null;
  inReplyTo: number | null;
  target: string | null;
  metadata: Record<string, unknown> | null;
  idempotencyKey: string | null;
  requestHash: string | null;
}

/** What one insert statement returns: the row, plus what the summary trigger needs. */
export interface InsertedMessage {
  row: MessageRow;
  channelId: string;
  summaryThreshold: number;
  /** lastSeq − coversThroughSeq right after this insert. */
  backlog: number;
  /** This message closed its thread (its seq is the thread's closed seq): a thread summary is due. */
  closedThread: boolean;
}

const PREFIXED_COLUMNS = MESSAGE_COLUMNS.split(', ').map((c) => `m.${c}`).join(', ');

const INSERT_SQL = `
  WITH c AS (
    UPDATE channels SET last_seq = last_seq + 1
    WHERE name = $1
      AND ($3 OR members IS NULL OR cardinality(members) = 0 OR $2 = ANY(members))
      AND ($9::bigint IS NULL OR $9::bigint <= last_seq)
    RETURNING id, last_seq, summary_threshold
  ), m AS (
    INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash)
    SELECT c.id, c.last_seq, $4, $2, $5, $6, $7, $9, $8, $10, $11, $12 FROM c
    RETURNING ${MESSAGE_COLUMNS}
  )
  SELECT m.*, c.id AS channel_id, c.summary_threshold,
         c.last_seq - COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = c.id), 0) AS backlog
  FROM m, c`;

/** The message CTEs of INSERT_SQL (everything before its final SELECT). */
const INSERT_CTES = INSERT_SQL.slice(0, INSERT_SQL.lastIndexOf('SELECT m.*'));

/**
 * The post of a message with a correlation id: INSERT_SQL plus the upsert of its thread's row in
 * the same statement (still one round trip, atomic with the message). $13 is the thread rules'
 * transition table for this message type (thread-transitions.ts, computed from applyThreadRule);
 * the statement looks the thread's current state up in it. It is always an upsert (a correlation
 * id with no thread gets a row with a NULL status) because ON CONFLICT DO UPDATE works on the
 * LATEST committed row, even one committed after this statement's snapshot was taken while it
 * waited for the channel row lock; a plain read of threads here would see the stale snapshot.
 */
const INSERT_WITH_THREAD_SQL = `${INSERT_CTES}, th AS (
    INSERT INTO threads AS t (channel_id, correlation_id, status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at)
    SELECT c.id, m.correlation_id, n.x->>'s', n.x->>'y',
           CASE WHEN n.x->>'o' = 'target' THEN m.target END,
           CASE WHEN (n.x->>'open')::boolean THEN m.sender END,
           CASE WHEN (n.x->>'open')::boolean THEN m.seq END,
           CASE WHEN (n.x->>'open')::boolean THEN m.created_at END,
           NULL, m.seq, m.created_at
    FROM c, m, (SELECT $13::jsonb -> '|' AS x) n
    ON CONFLICT (channel_id, correlation_id) DO UPDATE SET
      (status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at) = (
        SELECT k.x->>'s', k.x->>'y',
               CASE WHEN k.x->>'o' = 'target' THEN $8 ELSE t.owner END,
               CASE WHEN (k.x->>'open')::boolean THEN $2 ELSE t.opener END,
               CASE WHEN (k.x->>'open')::boolean THEN EXCLUDED.updated_seq ELSE t.opened_seq END,
               CASE WHEN (k.x->>'open')::boolean THEN EXCLUDED.updated_at ELSE t.opened_at END,
               CASE WHEN (k.x->>'close')::boolean THEN EXCLUDED.updated_seq WHEN (k.x->>'open')::boolean THEN NULL ELSE t.closed_seq END,
               EXCLUDED.updated_seq, EXCLUDED.updated_at
        FROM (SELECT $13::jsonb -> (COALESCE(t.status, '') || '|' || COALESCE(t.type, '')) AS x) k)
    RETURNING t.closed_seq
  )
  SELECT m.*, c.id AS channel_id, c.summary_threshold,
         c.last_seq - COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = c.id), 0) AS backlog,
         COALESCE((SELECT th.closed_seq FROM th) = m.seq, false) AS closed_thread
  FROM m, c`;

const FIND_BY_IDEMPOTENCY_KEY_SQL = `
  SELECT ${PREFIXED_COLUMNS}, m.request_hash FROM messages m JOIN channels c ON c.id = m.channel_id
  WHERE c.name = $1 AND m.sender = $2 AND m.idempotency_key = $3`;

/** Largest bigint: "no upper bound". */
const MAX_SEQ = '9223372036854775807';

// Both bounds are index conditions, also in Postgres' generic plan for this prepared statement
// (`$3 IS NULL OR seq <= $3` is not: the scan then runs to the channel's last message).
const RANGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND seq > $2 AND seq <= COALESCE($3::bigint, ${MAX_SEQ}) AND ($5 OR type <> 'EVENT')
  ORDER BY seq LIMIT $4`;

// messages_channel_correlation_idx serves it (channel_id, correlation_id, seq).
const THREAD_PAGE_SQL = `
  SELECT ${MESSAGE_COLUMNS} FROM messages
  WHERE channel_id = $1 AND correlation_id = $2 AND seq > $3
  ORDER BY seq LIMIT $4`;

@Injectable()
export class MessagesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Allocates the channel's next seq and inserts the message in ONE statement: the channel row
   * lock serialises concurrent posts (gapless, unique seqs), and a failed insert rolls the seq
   * back. The access check and the inReplyTo bound are in the same WHERE, so a refused post
   * consumes nothing. Returns null when no row was written (see `explainRefusal`).
   */
  async insert(channelName: string, viewer: string, admin: boolean, m: NewMessage): Promise<InsertedMessage | null> {
    const threaded = m.correlationId !== null;
    const rows: (MessageRow & { channel_id: string; summary_threshold: number; backlog: string; closed_thread?: boolean | null })[] = await this.db.query(
      threaded ? INSERT_WITH_THREAD_SQL : INSERT_SQL,
      [
        channelName,
        m.sender,
        admin,
        m.type,
        m.content,
        m.topic,
        m.correlationId,
        m.target,
        m.inReplyTo,
        m.metadata === null ? null : JSON.stringify(m.metadata),
        m.idempotencyKey,
        m.requestHash,
        ...(threaded ? [transitionTableJson(m.type)] : []),
      ],
    );
    const r = rows[0];
    if (!r) return null;
    const { closed_thread, ...row } = r;
    return { row, channelId: String(r.channel_id), summaryThreshold: r.summary_threshold, backlog: Number(r.backlog), closedThread: closed_thread === true };
  }

  async findByIdempotencyKey(channelName: string, sender: string, key: string): Promise<(MessageRow & { request_hash: string | null }) | null> {
    const rows = await this.db.query(
      FIND_BY_IDEMPOTENCY_KEY_SQL,
      [channelName, sender, key],
    );
    return rows[0] ?? null;
  }

  /** Messages with afterSeq < seq ≤ throughSeq, in seq order, at most `limit`. */
  async range(channelId: string, afterSeq: number, throughSeq: number | null, limit: number, includeEvents: boolean): Promise<MessageRow[]> {
    return this.db.query(
      RANGE_SQL,
      [channelId, afterSeq, throughSeq, limit, includeEvents],
    );
  }

  /** Messages of one thread (one correlation id) after `afterSeq`, in seq order, at most `limit`. */
  async threadPage(channelId: string, correlationId: string, afterSeq: number, limit: number): Promise<MessageRow[]> {
    return this.db.query(THREAD_PAGE_SQL, [channelId, correlationId, afterSeq, limit]);
  }
}
