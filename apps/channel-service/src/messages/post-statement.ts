import { readableSql } from '../channels/channel-access';
import { backlogSql, summaryDueFlagSql } from '../channels/summary-backlog';
import { messageHeardSql, webhookOutboxCte } from '../common/webhook-outbox';
import { MESSAGE_COLUMNS } from '../message-store/message.entity';
import { threadUpsertCte } from '../threads/thread-upsert';
import { tokenEstimateSql } from './message-token-estimate';

/**
 * The post statement (MessagesRepository.insertBatch; a single post is a batch of one): one
 * statement allocates the seqs and writes the messages, the channel's counters and flags, the
 * webhook outbox and, with correlation ids, the thread index, and returns what the summary
 * trigger needs.
 */

/** The webhook outbox row of each message posted (not EVENTs), in the same statement (DESIGN §11). */
const MESSAGE_OUTBOX = webhookOutboxCte(
  'wo',
  'message',
  'm, c',
  'c.id',
  'm.seq',
  messageHeardSql({ channel: '$1::text', target: 'm.target', correlationId: 'm.correlation_id' }),
  `m.type <> 'EVENT'`,
);

/** A batch message's estimate, from its unnested parts and its seq expression. */
const batchTokensAt = (seq: string) => tokenEstimateSql('i.fixed', 'i.chars', 'i.pieces', seq);

/** The seq just before the batch's first message, once the channel row moved past the batch. */
const SEQ_BEFORE_BATCH = 'c.last_seq - $16';

/** The post's messages, one row each with its 1-based position `ord`: a batch's as one array per column ($4…$15). */
const BATCH_INPUT = `SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[],
                         $13::int[], $14::int[], $15::int[])
      WITH ORDINALITY AS t(type, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash, fixed, chars, pieces, ord)`;

/** A single post's one message, from the same parameters as scalars (unnesting twelve one-element arrays costs the hot path ~10 %). */
const SINGLE_INPUT = `SELECT $4::text AS type, $5::text AS content, $6::text AS topic, $7::text AS correlation_id, $8::bigint AS in_reply_to, $9::text AS target,
           $10::text AS metadata, $11::text AS idempotency_key, $12::text AS request_hash, $13::int AS fixed, $14::int AS chars, $15::int AS pieces, 1::bigint AS ord`;

// Message i (1-based) gets seq = the old lastSeq + i ($16 messages). Its inReplyTo must name an
// earlier message, of the channel or of the batch (in_reply_to < its own seq); otherwise nothing
// is written. $17, when set, is the lastSeq the batch's replies into itself were resolved against:
// if another post came first, nothing is written (the caller resolves again). The channel's
// running token total moves with last_seq in the same row update (serialised by the row lock like
// the seq), so each message stores the total through itself: any range's tokens are then two
// indexed lookups, never a scan. The flags move with last_seq too: the sweep's (migration
// 1765300000000: the backlog reached the threshold) and the retention pass's (migration
// 1765810000000: the count bound now lets a summary version go).
const postCtes = (input: string) => `
  WITH input AS (
    ${input}
  ), c AS (    UPDATE channels SET last_seq = last_seq + $16,
      token_total = token_total + (SELECT COALESCE(sum(${batchTokensAt('channels.last_seq + i.ord')}), 0) FROM input i),
      summary_due = ${summaryDueFlagSql('last_seq + $16')},
      retention_due_at = CASE WHEN last_seq < retention_due_seq AND last_seq + $16 >= retention_due_seq THEN LEAST(retention_due_at, now()) ELSE retention_due_at END
    WHERE name = $1
      AND ${readableSql('members', { name: '$2', admin: '$3' })}
      AND archived_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM input WHERE in_reply_to IS NOT NULL AND in_reply_to >= channels.last_seq + ord)
      AND ($17::bigint IS NULL OR channels.last_seq = $17)
    RETURNING id, last_seq, token_total, summary_threshold, summary_threshold_tokens
  ), e AS (
    SELECT i.*, ${SEQ_BEFORE_BATCH} + i.ord AS seq, ${batchTokensAt(`${SEQ_BEFORE_BATCH} + i.ord`)} AS tokens FROM c, input i
  ), m AS (
    INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash,
                          token_estimate, tokens_through)
    SELECT c.id, e.seq, e.type, $2, e.content, e.topic, e.correlation_id, e.in_reply_to, e.target, e.metadata::jsonb, e.idempotency_key, e.request_hash,
           e.tokens, c.token_total - COALESCE(sum(e.tokens) OVER (ORDER BY e.ord ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING), 0)
    FROM c, e
    RETURNING ${MESSAGE_COLUMNS}, token_estimate, tokens_through
  ), ${MESSAGE_OUTBOX}`;

const POST_RESULT = `
  SELECT m.*, EXISTS (SELECT 1 FROM wo WHERE wo.seq = m.seq) AS announced, c.id AS channel_id, c.summary_threshold, c.summary_threshold_tokens, c.token_total,
         ${backlogSql('c.last_seq', 'COALESCE(s.covers_through_seq, 0)')} AS backlog,
         ${backlogSql('c.token_total', 'COALESCE(s.covers_through_tokens, 0)')} AS backlog_tokens`;
const POST_FROM = `  FROM m CROSS JOIN c LEFT JOIN channel_summaries s ON s.channel_id = c.id`;

/** The post of `input`'s messages without correlation ids. */
const postSql = (input: string) => `${postCtes(input)}
${POST_RESULT}
${POST_FROM}
  ORDER BY m.seq`;

/** The post of `input`'s messages with correlation ids: postSql plus the thread index's upsert (threads/thread-upsert.ts, $18-$20), and which message closed its thread. */
const postWithThreadsSql = (input: string) => `${postCtes(input)}, ${threadUpsertCte('th', {
  channel: 'c',
  channelId: 'c.id',
  seqBefore: SEQ_BEFORE_BATCH,
  sender: '$2',
  correlationIds: '$18',
  tables: '$19',
  lastOrds: '$20',
})}
${POST_RESULT}, COALESCE(th.closed_seq = m.seq, false) AS closed_thread
${POST_FROM} LEFT JOIN th ON th.correlation_id = m.correlation_id
  ORDER BY m.seq`;

/** The post statements: a batch's (arrays) and a single post's (scalars), each with and without correlation ids. */
export const POST_SQL = {
  batch: postSql(BATCH_INPUT),
  batchWithThreads: postWithThreadsSql(BATCH_INPUT),
  single: postSql(SINGLE_INPUT),
  singleWithThreads: postWithThreadsSql(SINGLE_INPUT),
};
