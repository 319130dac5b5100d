import { Injectable } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { readableSql, Viewer } from '../channels/channel-access';
import { Database } from '../database/database';
import { TokenEstimateBeforeSeq, tokenEstimateSql } from './message-token-estimate';
import { GroupMessage, groupTransitionTable, transitionTableJson } from '../threads/thread-transitions';
import { MESSAGE_COLUMNS, MessageRow } from '../message-store/message.entity';
import { MAX_SEQ } from '../message-store/message-reads.repository';
import { MessageFilter } from './message-filter';
import { qualifiedColumns } from '../database/column-list';
import { webhookOutboxCte } from '../common/webhook-outbox';

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
  /** This message closed its thread (its seq is the thread's closed seq): a thread summary is due. */
  closedThread: boolean;
}

type InsertRow = MessageRow & {
  channel_id: string;
  summary_threshold: number;
  summary_threshold_tokens: number | null;
  backlog: string;
  backlog_tokens: string;
  token_estimate: number;
};

const PREFIXED_COLUMNS = qualifiedColumns('m', MESSAGE_COLUMNS);

/** The webhook outbox row of each message posted (not EVENTs), in the same statement (DESIGN §11). */
const MESSAGE_OUTBOX = webhookOutboxCte('wo', 'message', 'm, c', 'c.id', 'm.seq', `m.type <> 'EVENT'`);

/** The new message's estimate ($13-$15 are its parts, see tokenEstimateBeforeSeq), for a seq expression. */
const tokensAt = (seq: string) => tokenEstimateSql('$13', '$14', '$15', seq);

// The channel's running token total moves with last_seq in the same row update (serialised by the
// row lock like the seq), so each message stores the total through itself: any range's tokens
// are then two indexed lookups, never a scan.
const INSERT_RESULT = `
  SELECT m.*, c.id AS channel_id, c.summary_threshold, c.summary_threshold_tokens,
         c.last_seq - COALESCE(s.covers_through_seq, 0) AS backlog,
         c.token_total - COALESCE(s.covers_through_tokens, 0) AS backlog_tokens`;
const INSERT_FROM = `  FROM m CROSS JOIN c LEFT JOIN channel_summaries s ON s.channel_id = c.id`;

const INSERT_SQL = `
  WITH c AS (
    UPDATE channels SET last_seq = last_seq + 1, token_total = token_total + ${tokensAt('last_seq + 1')},
      -- The sweep's index (migration 1765300000000): the backlog has reached the threshold.
      summary_due = last_seq + 1 - COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = channels.id), 0) >= summary_threshold,
      -- The retention pass's index (migration 1765810000000): the count bound now lets a summary version go.
      retention_due_at = CASE WHEN last_seq + 1 = retention_due_seq THEN LEAST(retention_due_at, now()) ELSE retention_due_at END
    WHERE name = $1
      AND ${readableSql('members', { name: '$2', admin: '$3' })}
      AND archived_at IS NULL
      AND ($9::bigint IS NULL OR $9::bigint <= last_seq)
    RETURNING id, last_seq, token_total, summary_threshold, summary_threshold_tokens
  ), m AS (
    INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash,
                          token_estimate, tokens_through)
    SELECT c.id, c.last_seq, $4, $2, $5, $6, $7, $9, $8, $10, $11, $12, ${tokensAt('c.last_seq')}, c.token_total FROM c
    RETURNING ${MESSAGE_COLUMNS}, token_estimate
  ), ${MESSAGE_OUTBOX}
${INSERT_RESULT}
${INSERT_FROM}`;

/** The correlation ids of the replied-to messages that have one, and the channel's lastSeq as read with them (null: not readable). */
export interface RepliedThreads {
  lastSeq: number | null;
  correlationIds: Map<number, string>;
}

/** What one batch insert returns: the rows in seq order, plus what the summary trigger needs. */
export interface InsertedBatch {
  /** closed_thread: the message closed its thread (only batches with correlation ids carry it). */
  rows: (MessageRow & { token_estimate: number; tokens_through: string; closed_thread?: boolean })[];
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
// of the channel or of the batch (in_reply_to < its own seq); otherwise nothing is written. $17,
// when set, is the lastSeq the batch's replies into itself were resolved against: if another post
// came first, nothing is written (the caller resolves again). The
// running token total moves with last_seq as for one post; each row stores the total through itself.
const BATCH_RESULT = `
  SELECT m.*, c.id AS channel_id, c.summary_threshold, c.summary_threshold_tokens, c.token_total,
         c.last_seq - COALESCE(s.covers_through_seq, 0) AS backlog,
         c.token_total - COALESCE(s.covers_through_tokens, 0) AS backlog_tokens`;

const INSERT_BATCH_SQL = `
  WITH input AS (
    SELECT * FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::text[],
                         $13::int[], $14::int[], $15::int[])
      WITH ORDINALITY AS t(type, content, topic, correlation_id, in_reply_to, target, metadata, idempotency_key, request_hash, fixed, chars, pieces, ord)
  ), c AS (
    UPDATE channels SET last_seq = last_seq + $16,
      token_total = token_total + (SELECT COALESCE(sum(${batchTokensAt('channels.last_seq + i.ord')}), 0) FROM input i),
      summary_due = last_seq + $16 - COALESCE((SELECT s.covers_through_seq FROM channel_summaries s WHERE s.channel_id = channels.id), 0) >= summary_threshold,
      retention_due_at = CASE WHEN last_seq < retention_due_seq AND last_seq + $16 >= retention_due_seq THEN LEAST(retention_due_at, now()) ELSE retention_due_at END
    WHERE name = $1
      AND ${readableSql('members', { name: '$2', admin: '$3' })}
      AND archived_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM input WHERE in_reply_to IS NOT NULL AND in_reply_to >= channels.last_seq + ord)
      AND ($17::bigint IS NULL OR channels.last_seq = $17)
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
  ), ${MESSAGE_OUTBOX}
${BATCH_RESULT}
${INSERT_FROM}
  ORDER BY m.seq`;

/** The batch's CTEs (everything before its final SELECT). */
const BATCH_CTES = INSERT_BATCH_SQL.slice(0, INSERT_BATCH_SQL.lastIndexOf(BATCH_RESULT));

/**
 * A batch with correlation ids: INSERT_BATCH_SQL plus one upsert per thread the batch touches.
 * One statement writes a row once, so the batch's messages of one thread come folded into one
 * transition table by groupTransitionTable (computed from threadStep); $18-$20 are, per thread,
 * its correlation id, that table and the position of its last message in the batch. Offsets in
 * the table count back from that last message. Upsert for the same reason as a single post.
 */
const INSERT_BATCH_WITH_THREADS_SQL = `${BATCH_CTES}, th AS (
    INSERT INTO threads AS t (channel_id, correlation_id, status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at)
    SELECT c.id, g.cid, n.x->>'s', n.x->>'y', n.x->>'owner',
           CASE WHEN n.x->>'open' IS NOT NULL THEN $2 END,
           CASE WHEN n.x->>'open' IS NOT NULL THEN c.last_seq - $16 + g.last_ord - (n.x->>'open')::int END,
           CASE WHEN n.x->>'open' IS NOT NULL THEN now() END,
           CASE WHEN jsonb_typeof(n.x->'close') = 'number' THEN c.last_seq - $16 + g.last_ord - (n.x->>'close')::int END,
           c.last_seq - $16 + g.last_ord, now()
    FROM c, unnest($18::text[], $19::jsonb[], $20::int[]) AS g(cid, tbl, last_ord), LATERAL (SELECT g.tbl -> '|' AS x) n
    ON CONFLICT (channel_id, correlation_id) DO UPDATE SET
      (status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at) = (
        SELECT k.x->>'s', k.x->>'y',
               CASE WHEN k.x->>'o' = 'set' THEN k.x->>'owner' ELSE t.owner END,
               CASE WHEN k.x->>'open' IS NOT NULL THEN $2 ELSE t.opener END,
               CASE WHEN k.x->>'open' IS NOT NULL THEN EXCLUDED.updated_seq - (k.x->>'open')::int ELSE t.opened_seq END,
               CASE WHEN k.x->>'open' IS NOT NULL THEN EXCLUDED.updated_at ELSE t.opened_at END,
               CASE WHEN jsonb_typeof(k.x->'close') = 'number' THEN EXCLUDED.updated_seq - (k.x->>'close')::int
                    WHEN k.x->>'close' = 'clear' THEN NULL ELSE t.closed_seq END,
               EXCLUDED.updated_seq, EXCLUDED.updated_at
        FROM (SELECT (SELECT g.tbl FROM unnest($18::text[], $19::jsonb[]) AS g(cid, tbl) WHERE g.cid = EXCLUDED.correlation_id)
                     -> (COALESCE(t.status, '') || '|' || COALESCE(t.type, '')) AS x) k)
    RETURNING t.correlation_id, t.closed_seq
  )
${BATCH_RESULT}, COALESCE(th.closed_seq = m.seq, false) AS closed_thread
${INSERT_FROM} LEFT JOIN th ON th.correlation_id = m.correlation_id
  ORDER BY m.seq`;

// Idempotency replays: the sender's own messages, in a channel it may still read (a replay is a
// read: after losing access the retry is a 404 like everything else about the channel).
const FIND_BY_IDEMPOTENCY_KEYS_SQL = `
  SELECT ${PREFIXED_COLUMNS}, m.request_hash, m.idempotency_key FROM messages m JOIN channels c ON c.id = m.channel_id
  WHERE c.name = $1 AND m.sender = $2 AND m.idempotency_key = ANY($3::text[]) AND ${readableSql('c.members', { name: '$2', admin: '$4' })}
  ORDER BY m.seq`;

// The thread of each message these seqs name (a reply by inReplyTo alone joins it, see
// MessagesService). Served by the (channel_id, seq) primary key.
const CORRELATION_IDS_AT_SQL = `
  SELECT c.last_seq, m.seq::int AS seq, m.correlation_id FROM channels c
    LEFT JOIN messages m ON m.channel_id = c.id AND m.seq = ANY($4::bigint[]) AND m.correlation_id IS NOT NULL
  WHERE c.name = $1 AND ${readableSql('c.members', { name: '$2', admin: '$3' })}`;

/** The message CTEs of INSERT_SQL (everything before its final SELECT). */
const INSERT_CTES = INSERT_SQL.slice(0, INSERT_SQL.lastIndexOf(INSERT_RESULT));

/**
 * The post of a message with a correlation id: INSERT_SQL plus the upsert of its thread's row in
 * the same statement (still one round trip, atomic with the message). $16 is the thread rules'
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
    FROM c, m, (SELECT $16::jsonb -> '|' AS x) n
    ON CONFLICT (channel_id, correlation_id) DO UPDATE SET
      (status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at) = (
        SELECT k.x->>'s', k.x->>'y',
               CASE WHEN k.x->>'o' = 'target' THEN $8 ELSE t.owner END,
               CASE WHEN (k.x->>'open')::boolean THEN $2 ELSE t.opener END,
               CASE WHEN (k.x->>'open')::boolean THEN EXCLUDED.updated_seq ELSE t.opened_seq END,
               CASE WHEN (k.x->>'open')::boolean THEN EXCLUDED.updated_at ELSE t.opened_at END,
               CASE WHEN (k.x->>'close')::boolean THEN EXCLUDED.updated_seq WHEN (k.x->>'open')::boolean THEN NULL ELSE t.closed_seq END,
               EXCLUDED.updated_seq, EXCLUDED.updated_at
        FROM (SELECT $16::jsonb -> (COALESCE(t.status, '') || '|' || COALESCE(t.type, '')) AS x) k)
    RETURNING t.closed_seq
  )
${INSERT_RESULT}, COALESCE((SELECT th.closed_seq FROM th) = m.seq, false) AS closed_thread
${INSERT_FROM}`;

/** The names of `$1` that name no agent (or a revoked one): a target must be someone who can read it. */
const UNREGISTERED_AGENTS_SQL = `
  SELECT n AS name FROM unnest($1::text[]) AS n
  WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.name = n AND a.revoked_at IS NULL)`;

const FIND_BY_IDEMPOTENCY_KEY_SQL = `
  SELECT ${PREFIXED_COLUMNS}, m.request_hash FROM messages m JOIN channels c ON c.id = m.channel_id
  WHERE c.name = $1 AND m.sender = $2 AND m.idempotency_key = $3 AND ${readableSql('c.members', { name: '$2', admin: '$4' })}`;

/** Which page of a channel: seqs in (afterSeq, beforeSeq), the oldest `limit` of them, or the newest with `newest`. */
export interface MessagePage {
  afterSeq: number;
  /** Exclusive upper bound; null = none. */
  beforeSeq: number | null;
  limit: number;
  newest: boolean;
}

/** The optional equality filters, in parameter order, with their columns (each has an index: migrations/1765500000000). */
const EQUALITY_FILTERS = [
  ['topic', 'topic'],
  ['sender', 'sender'],
  ['correlationId', 'correlation_id'],
  ['target', 'target'],
] as const;

/**
 * The statement for one shape of filter: only the filters given appear, as plain equalities, so
 * every one is an index condition in Postgres' generic plan too (`$n IS NULL OR col = $n` would
 * not be). A type list is one ordered index range per type (`type = ANY(…)` would be a filter
 * on the seq index, scanning the channel for a rare type), merged and cut to the page. 2 × 2⁴ × 2
 * shapes at most, each built once (the Database prepares each text once).
 */
function messagePageSql(typesGiven: boolean, present: readonly boolean[], newest: boolean): string {
  const where = [`channel_id = $1`, `seq > $2`, `seq < COALESCE($3::bigint, ${MAX_SEQ})`];
  where.push(typesGiven ? `type = wanted.t` : `($5 OR type <> 'EVENT')`);
  let n = 5;
  EQUALITY_FILTERS.forEach(([, column], i) => {
    if (present[i]) where.push(`${column} = $${++n}`);
  });
  const order = (seq: string) => `ORDER BY ${seq}${newest ? ' DESC' : ''} LIMIT $4`;
  const select = `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE ${where.join(' AND ')} ${order('seq')}`;
  if (!typesGiven) return select;
  return `SELECT m.* FROM unnest($5::text[]) AS wanted(t) CROSS JOIN LATERAL (${select}) m ${order('m.seq')}`;
}

const pageSqlCache = new Map<string, string>();
export function pageSql(typesGiven: boolean, present: readonly boolean[], newest: boolean): string {
  const key = `${typesGiven}${present.join('')}${newest}`;
  let sql = pageSqlCache.get(key);
  if (!sql) pageSqlCache.set(key, (sql = messagePageSql(typesGiven, present, newest)));
  return sql;
}

@Injectable()
export class MessagesRepository {
  constructor(private readonly db: Database) {}

  /**
   * Allocates the channel's next seq and inserts the message in ONE statement: the channel row
   * lock serialises concurrent posts (gapless, unique seqs), and a failed insert rolls the seq
   * back. The access check and the inReplyTo bound are in the same WHERE, so a refused post
   * consumes nothing; so is the archive check (an archived channel takes no post). Returns null
   * when no row was written (see `explainRefusal`).
   */
  async insert(channelName: string, viewer: Viewer, m: NewMessage): Promise<InsertedMessage | null> {
    const threaded = m.correlationId !== null;
    const rows: (InsertRow & { closed_thread?: boolean | null })[] = await this.db.query(
      threaded ? INSERT_WITH_THREAD_SQL : INSERT_SQL,
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
        ...(threaded ? [transitionTableJson(m.type)] : []),
      ],
    );
    const r = rows[0];
    if (!r) return null;
    const { closed_thread, ...row } = r;
    return {
      row,
      closedThread: closed_thread === true,
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
   * Returns null when nothing was written. `resolvedAtLastSeq`: the lastSeq the batch's replies
   * into itself assume (null: none do); another post came first → nothing written, null.
   */
  async insertBatch(channelName: string, viewer: Viewer, batch: readonly NewMessage[], resolvedAtLastSeq: number | null = null): Promise<InsertedBatch | null> {
    const column = <T>(pick: (m: NewMessage) => T) => batch.map(pick);
    type BatchRow = InsertedBatch['rows'][number] & Omit<InsertRow, 'token_estimate'> & { token_total: string };
    const threads = threadGroups(batch);
    const rows: BatchRow[] = await this.db.query(threads ? INSERT_BATCH_WITH_THREADS_SQL : INSERT_BATCH_SQL, [
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
      resolvedAtLastSeq,
      ...(threads ? [threads.correlationIds, threads.tables, threads.lastOrds] : []),
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

  /** The correlation id of each of these messages that has one (seq → id), and the channel's lastSeq; none and null for a channel the viewer may not read. */
  async correlationIdsAt(channelName: string, viewer: Viewer, seqs: readonly number[]): Promise<RepliedThreads> {
    const rows = await this.db.query<{ last_seq: string; seq: number | null; correlation_id: string | null }>(CORRELATION_IDS_AT_SQL, [channelName, viewer.name, viewer.admin, seqs]);
    const correlationIds = new Map<number, string>();
    for (const r of rows) if (r.seq !== null && r.correlation_id !== null) correlationIds.set(r.seq, r.correlation_id);
    return { lastSeq: rows.length > 0 ? Number(rows[0].last_seq) : null, correlationIds };
  }

  /** The sender's (the viewer's) messages carrying any of these idempotency keys, in a channel it may read, in seq order. */
  /** Which of `names` are not registered agents (none: []). */
  async unregisteredAgents(names: readonly string[]): Promise<string[]> {
    const rows = await this.db.query<{ name: string }>(UNREGISTERED_AGENTS_SQL, [names]);
    return rows.map((r) => r.name);
  }

  async findByIdempotencyKeys(channelName: string, sender: Viewer, keys: readonly string[]): Promise<(MessageRow & { request_hash: string | null; idempotency_key: string })[]> {
    return this.db.query(FIND_BY_IDEMPOTENCY_KEYS_SQL, [channelName, sender.name, keys, sender.admin]);
  }

  /** As findByIdempotencyKeys, for one key. */
  async findByIdempotencyKey(channelName: string, sender: Viewer, key: string): Promise<(MessageRow & { request_hash: string | null }) | null> {
    const rows = await this.db.query<MessageRow & { request_hash: string | null }>(FIND_BY_IDEMPOTENCY_KEY_SQL, [channelName, sender.name, key, sender.admin]);
    return rows[0] ?? null;
  }

  /** One page of messages matching `filter`, in ascending seq whichever end it was taken from. */
  async page(channelId: string, page: MessagePage, filter: MessageFilter): Promise<MessageRow[]> {
    const values = EQUALITY_FILTERS.map(([field]) => filter[field]);
    const present = values.map((v) => v !== null);
    const rows: MessageRow[] = await this.db.query(pageSql(filter.types !== null, present, page.newest), [
      channelId,
      page.afterSeq,
      page.beforeSeq,
      page.limit,
      filter.types ?? filter.includeEvents,
      ...values.filter((v) => v !== null),
    ]);
    return page.newest ? rows.reverse() : rows;
  }
}

/** Per thread a batch touches: its correlation id, its folded transition table (JSON) and its last message's 1-based position; null when none. */
function threadGroups(batch: readonly NewMessage[]): { correlationIds: string[]; tables: string[]; lastOrds: number[] } | null {
  const groups = new Map<string, GroupMessage[]>();
  batch.forEach((m, i) => {
    if (m.correlationId === null) return;
    const group = groups.get(m.correlationId) ?? [];
    group.push({ type: m.type, target: m.target, ord: i + 1 });
    groups.set(m.correlationId, group);
  });
  if (groups.size === 0) return null;
  const entries = [...groups.entries()];
  return {
    correlationIds: entries.map(([id]) => id),
    tables: entries.map(([, g]) => JSON.stringify(groupTransitionTable(g))),
    lastOrds: entries.map(([, g]) => g[g.length - 1].ord),
  };
}
