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
    UPDATE channels SET last_seq = last_seq + 1,
      -- The sweep's index (migration 1765300000000): the backlog has reached the threshold.
      summary_due = last_seq + 1 - COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = channels.id), 0) >= summary_threshold
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
