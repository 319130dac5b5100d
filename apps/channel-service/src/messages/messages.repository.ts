import { Injectable } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { Database } from '../database/database';
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

/** What one batch insert returns: the rows in seq order, plus what the summary trigger needs. */
export interface InsertedBatch {
  rows: MessageRow[];
  channelId: string;
  summaryThreshold: number;
  /** lastSeq − coversThroughSeq right after the batch. */
  backlog: number;
}

// The batch's messages arrive as one array per column ($4…$12), unnested with their position:
// message i (1-based) gets seq = the old lastSeq + i. Its inReplyTo must name an earlier message,
// of the channel or of the batch (in_reply_to < its own seq); otherwise nothing is written.
const INSERT_BATCH_SQL = `
  WITH input AS (
    SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[])
      WITH ORDINALITY AS t(type, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash, ord)
  ), c AS (
    UPDATE channels SET last_seq = last_seq + $13
    WHERE name = $1
      AND ($3 OR members IS NULL OR cardinality(members) = 0 OR $2 = ANY(members))
      AND NOT EXISTS (SELECT 1 FROM input WHERE in_reply_to IS NOT NULL AND in_reply_to >= channels.last_seq + ord)
    RETURNING id, last_seq, summary_threshold
  ), m AS (
    INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash)
    SELECT c.id, c.last_seq - $13 + i.ord, i.type, $2, i.content, i.topic, i.correlation_id, i.in_reply_to, i.target, i.metadata::jsonb, i.idempotency_key, i.request_hash
    FROM c, input i
    RETURNING ${MESSAGE_COLUMNS}
  )
  SELECT m.*, c.id AS channel_id, c.summary_threshold,
         c.last_seq - COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = c.id), 0) AS backlog
  FROM m, c ORDER BY m.seq`;

const FIND_BY_IDEMPOTENCY_KEYS_SQL = `
  SELECT ${PREFIXED_COLUMNS}, m.request_hash, m.idempotency_key FROM messages m JOIN channels c ON c.id = m.channel_id
  WHERE c.name = $1 AND m.sender = $2 AND m.idempotency_key = ANY($3::text[])
  ORDER BY m.seq`;

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

const THREAD_SQL = `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE channel_id = $1 AND correlation_id = $2 ORDER BY seq`;

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
    const rows: (MessageRow & { channel_id: string; summary_threshold: number; backlog: string })[] = await this.db.query(
      INSERT_SQL,
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
      ],
    );
    const r = rows[0];
    if (!r) return null;
    return { row: r, channelId: String(r.channel_id), summaryThreshold: r.summary_threshold, backlog: Number(r.backlog) };
  }

  /**
   * Inserts every message of a batch in ONE statement (consecutive seqs, all or nothing); the
   * access check and every inReplyTo bound are in the channel update's WHERE, as for one post.
   * Returns null when nothing was written.
   */
  async insertBatch(channelName: string, sender: string, admin: boolean, batch: readonly NewMessage[]): Promise<InsertedBatch | null> {
    const column = <T>(pick: (m: NewMessage) => T) => batch.map(pick);
    const rows: (MessageRow & { channel_id: string; summary_threshold: number; backlog: string })[] = await this.db.query(INSERT_BATCH_SQL, [
      channelName,
      sender,
      admin,
      column((m) => m.type),
      column((m) => m.content),
      column((m) => m.topic),
      column((m) => m.correlationId),
      column((m) => m.inReplyTo),
      column((m) => m.target),
      column((m) => (m.metadata === null ? null : JSON.stringify(m.metadata))),
      column((m) => m.idempotencyKey),
      column((m) => m.requestHash),
      batch.length,
    ]);
    const first = rows[0];
    if (!first) return null;
    return { rows, channelId: String(first.channel_id), summaryThreshold: first.summary_threshold, backlog: Number(first.backlog) };
  }

  /** The caller's messages in a channel carrying any of these idempotency keys, in seq order. */
  async findByIdempotencyKeys(channelName: string, sender: string, keys: readonly string[]): Promise<(MessageRow & { request_hash: string | null; idempotency_key: string })[]> {
    return this.db.query(FIND_BY_IDEMPOTENCY_KEYS_SQL, [channelName, sender, keys]);
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

  /** Every message of one thread, in seq order. */
  async thread(channelId: string, correlationId: string): Promise<MessageRow[]> {
    return this.db.query(
      THREAD_SQL,
      [channelId, correlationId],
    );
  }
}
