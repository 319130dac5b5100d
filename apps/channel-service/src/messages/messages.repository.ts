import { Injectable } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { readableSql, Viewer } from '../channels/channel-access';
import { Database } from '../database/database';
import { TokenEstimateBeforeSeq, tokenEstimateSql } from '../projection/message-token-estimate';
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
  /** Its projection cost but for the seq's digits (null: costs 0); the insert statement completes it. */
  tokens: TokenEstimateBeforeSeq | null;
}

/** What one insert statement returns: the row, plus what the summary trigger needs. */
export interface InsertedMessage {
  row: MessageRow;
  channelId: string;
  summaryThreshold: number;
  /** lastSeq − coversThroughSeq right after this insert. */
  backlog: number;
  /** The channel's optional token trigger. */
  summaryThresholdTokens: number | null;
  /** Estimated tokens after the watermark right after this insert, and this message's share. */
  backlogTokens: number;
  messageTokens: number;
}

type InsertRow = MessageRow & {
  channel_id: string;
  summary_threshold: number;
  summary_threshold_tokens: number | null;
  backlog: string;
  backlog_tokens: string;
  token_estimate: number;
};

const PREFIXED_COLUMNS = MESSAGE_COLUMNS.split(', ').map((c) => `m.${c}`).join(', ');

/** The new message's estimate ($13-$15 are its parts, see tokenEstimateBeforeSeq), for a seq expression. */
const tokensAt = (seq: string) => tokenEstimateSql('$13', '$14', '$15', seq);

// The channel's running token total moves with last_seq in the same row update (serialised by the
// row lock like the seq), so each message stores the total through itself: any range's tokens
// are then two indexed lookups, never a scan.
const INSERT_SQL = `
  WITH c AS (
    UPDATE channels SET last_seq = last_seq + 1, token_total = token_total + ${tokensAt('last_seq + 1')}
    WHERE name = $1
      AND ${readableSql('members', { name: '$2', admin: '$3' })}
      AND ($9::bigint IS NULL OR $9::bigint <= last_seq)
    RETURNING id, last_seq, token_total, summary_threshold, summary_threshold_tokens
  ), m AS (
    INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash,
                          token_estimate, tokens_through)
    SELECT c.id, c.last_seq, $4, $2, $5, $6, $7, $9, $8, $10, $11, $12, ${tokensAt('c.last_seq')}, c.token_total FROM c
    RETURNING ${MESSAGE_COLUMNS}, token_estimate
  )
  SELECT m.*, c.id AS channel_id, c.summary_threshold, c.summary_threshold_tokens,
         c.last_seq - COALESCE(s.covers_through_seq, 0) AS backlog,
         c.token_total - COALESCE(s.covers_through_tokens, 0) AS backlog_tokens
  FROM m CROSS JOIN c LEFT JOIN channel_summaries s ON s.channel_id = c.id`;

/** What one batch insert returns: the rows in seq order, plus what the summary trigger needs. */
export interface InsertedBatch {
  rows: (MessageRow & { token_estimate: number; tokens_through: string })[];
  channelId: string;
  summaryThreshold: number;
  /** lastSeq − coversThroughSeq right after the batch. */
  backlog: number;
  summaryThresholdTokens: number | null;
  /** Estimated tokens after the watermark right after the batch, and the channel's running total. */
  backlogTokens: number;
  tokenTotal: number;
}

/** A batch message's estimate, from its unnested parts and its seq expression. */
const batchTokensAt = (seq: string) => tokenEstimateSql('i.fixed', 'i.chars', 'i.pieces', seq);

// The batch's messages arrive as one array per column ($4…$15), unnested with their position:
// message i (1-based) gets seq = the old lastSeq + i. Its inReplyTo must name an earlier message,
// of the channel or of the batch (in_reply_to < its own seq); otherwise nothing is written. The
// running token total moves with last_seq as for one post; each row stores the total through itself.
const INSERT_BATCH_SQL = `
  WITH input AS (
    SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[],
                         $13::int[], $14::int[], $15::int[])
      WITH ORDINALITY AS t(type, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash, fixed, chars, pieces, ord)
  ), c AS (
    UPDATE channels SET last_seq = last_seq + $16,
      token_total = token_total + (SELECT COALESCE(sum(${batchTokensAt('channels.last_seq + i.ord')}), 0) FROM input i)
    WHERE name = $1
      AND ${readableSql('members', { name: '$2', admin: '$3' })}
      AND NOT EXISTS (SELECT 1 FROM input WHERE in_reply_to IS NOT NULL AND in_reply_to >= channels.last_seq + ord)
    RETURNING id, last_seq, token_total, summary_threshold, summary_threshold_tokens
  ), e AS (
    SELECT i.*, c.last_seq - $16 + i.ord AS seq, ${batchTokensAt('c.last_seq - $16 + i.ord')} AS tokens FROM c, input i
  ), m AS (
    INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash,
                          token_estimate, tokens_through)
    SELECT c.id, e.seq, e.type, $2, e.content, e.topic, e.correlation_id, e.in_reply_to, e.target, e.metadata::jsonb, e.idempotency_key, e.request_hash,
           e.tokens, c.token_total - COALESCE(sum(e.tokens) OVER (ORDER BY e.ord ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0)
    FROM c, e
    RETURNING ${MESSAGE_COLUMNS}, token_estimate, tokens_through
  )
  SELECT m.*, c.id AS channel_id, c.summary_threshold, c.summary_threshold_tokens, c.token_total,
         c.last_seq - COALESCE(s.covers_through_seq, 0) AS backlog,
         c.token_total - COALESCE(s.covers_through_tokens, 0) AS backlog_tokens
  FROM m CROSS JOIN c LEFT JOIN channel_summaries s ON s.channel_id = c.id
  ORDER BY m.seq`;

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
  async insert(channelName: string, viewer: Viewer, m: NewMessage): Promise<InsertedMessage | null> {
    const rows: InsertRow[] = await this.db.query(
      INSERT_SQL,
      [
        channelName,
        viewer.name,
        viewer.admin,
        m.type,
        m.content,
        m.topic,
        m.correlationId,
        m.target,
        m.inReplyTo,
        m.metadata === null ? null : JSON.stringify(m.metadata),
        m.idempotencyKey,
        m.requestHash,
        m.tokens?.fixed ?? null,
        m.tokens?.chars ?? null,
        m.tokens?.pieces ?? null,
      ],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      row: r,
      channelId: String(r.channel_id),
      summaryThreshold: r.summary_threshold,
      backlog: Number(r.backlog),
      summaryThresholdTokens: r.summary_threshold_tokens,
      backlogTokens: Number(r.backlog_tokens),
      messageTokens: r.token_estimate,
    };
  }

  /**
   * Inserts every message of a batch in ONE statement (consecutive seqs, all or nothing); the
   * access check and every inReplyTo bound are in the channel update's WHERE, as for one post.
   * Returns null when nothing was written.
   */
  async insertBatch(channelName: string, viewer: Viewer, batch: readonly NewMessage[]): Promise<InsertedBatch | null> {
    const column = <T>(pick: (m: NewMessage) => T) => batch.map(pick);
    type BatchRow = InsertedBatch['rows'][number] & Omit<InsertRow, 'token_estimate'> & { token_total: string };
    const rows: BatchRow[] = await this.db.query(INSERT_BATCH_SQL, [
      channelName,
      viewer.name,
      viewer.admin,
      column((m) => m.type),
      column((m) => m.content),
      column((m) => m.topic),
      column((m) => m.correlationId),
      column((m) => m.inReplyTo),
      column((m) => m.target),
      column((m) => (m.metadata === null ? null : JSON.stringify(m.metadata))),
      column((m) => m.idempotencyKey),
      column((m) => m.requestHash),
      column((m) => m.tokens?.fixed ?? null),
      column((m) => m.tokens?.chars ?? null),
      column((m) => m.tokens?.pieces ?? null),
      batch.length,
    ]);
    const first = rows[0];
    if (!first) return null;
    return {
      rows,
      channelId: String(first.channel_id),
      summaryThreshold: first.summary_threshold,
      backlog: Number(first.backlog),
      summaryThresholdTokens: first.summary_threshold_tokens,
      backlogTokens: Number(first.backlog_tokens),
      tokenTotal: Number(first.token_total),
    };
  }

  /** The caller's messages in a channel carrying any of these idempotency keys, in seq order. */
  async findByIdempotencyKeys(channelName: string, sender: string, keys: readonly string[]): Promise<(MessageRow & { request_hash: string | null; idempotency_key: string })[]> {
    return this.db.query(FIND_BY_IDEMPOTENCY_KEYS_SQL, [channelName, sender, keys]);
  }

  async findByIdempotencyKey(channelName: string, sender: string, key: string): Promise<(MessageRow & { request_hash: string | null }) | null> {
    const rows = await this.db.query<MessageRow & { request_hash: string | null }>(
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
