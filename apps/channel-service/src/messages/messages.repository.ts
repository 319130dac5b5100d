import { Injectable } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { readableSql, Viewer } from '../channels/channel-access';
import { Database } from '../database/database';
import { TokenEstimateBeforeSeq } from './message-token-estimate';
import { POST_SQL } from './post-statement';
import { threadUpsertParams } from '../threads/thread-upsert';
import { MESSAGE_COLUMNS, MessageRow } from '../message-store/message.entity';
import { MAX_SEQ } from '../message-store/message-reads.repository';
import { MessageFilter } from './message-filter';
import { qualifiedColumns } from '../database/column-list';

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
  /** Its webhook outbox row was written (some enabled hook may hear of it). */
  announced: boolean;
}

const PREFIXED_COLUMNS = qualifiedColumns('m', MESSAGE_COLUMNS);

/** The correlation ids of the replied-to messages that have one, and the channel's lastSeq as read with them (null: not readable). */
export interface RepliedThreads {
  lastSeq: number | null;
  correlationIds: Map<number, string>;
}

/** What one batch insert returns: the rows in seq order, plus what the summary trigger needs. */
export interface InsertedBatch {
  /** closed_thread: the message closed its thread (only batches with correlation ids carry it); announced: its webhook outbox row was written. */
  rows: (MessageRow & { token_estimate: number; tokens_through: string; closed_thread?: boolean; announced: boolean })[];
  channelId: string;
  summaryThreshold: number;
  /** lastSeq − coversThroughSeq right after the batch. */
  backlog: number;
  summaryThresholdTokens: number | null;
  /** Estimated tokens after the watermark right after the batch, and the channel's running total. */
  backlogTokens: number;
  tokenTotal: number;
}

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
   * Allocates the channel's next seq and inserts the message in ONE statement: the batch's
   * statement with a batch of one (its columns as scalars). The channel row lock serialises concurrent posts (gapless, unique seqs), and a
   * failed insert rolls the seq back. The access check and the inReplyTo bound are in the same
   * WHERE, so a refused post consumes nothing; so is the archive check (an archived channel takes
   * no post). Returns null when no row was written (see `explainRefusal`).
   */
  async insert(channelName: string, viewer: Viewer, m: NewMessage): Promise<InsertedMessage | null> {
    const inserted = await this.post(channelName, viewer, [m], null, true);
    if (!inserted) return null;
    const { closed_thread, announced, ...row } = inserted.rows[0];
    return {
      row,
      closedThread: closed_thread === true,
      announced,
      channelId: inserted.channelId,
      summaryThreshold: inserted.summaryThreshold,
      backlog: inserted.backlog,
      summaryThresholdTokens: inserted.summaryThresholdTokens,
      backlogTokens: inserted.backlogTokens,
      messageTokens: row.token_estimate,
    };
  }

  /**
   * Inserts every message of a batch in ONE statement (consecutive seqs, all or nothing); the
   * access check and every inReplyTo bound are in the channel update's WHERE, as for one post.
   * Returns null when nothing was written. `resolvedAtLastSeq`: the lastSeq the batch's replies
   * into itself assume (null: none do); another post came first → nothing written, null.
   */
  insertBatch(channelName: string, viewer: Viewer, batch: readonly NewMessage[], resolvedAtLastSeq: number | null = null): Promise<InsertedBatch | null> {
    return this.post(channelName, viewer, batch, resolvedAtLastSeq, false);
  }

  /** The post statement (post-statement.ts) over `batch`; `single`: one message, passed as scalars. */
  private async post(channelName: string, viewer: Viewer, batch: readonly NewMessage[], resolvedAtLastSeq: number | null, single: boolean): Promise<InsertedBatch | null> {
    const column = <T>(pick: (m: NewMessage) => T): T | T[] => (single ? pick(batch[0]) : batch.map(pick));
    type BatchRow = InsertedBatch['rows'][number] & { channel_id: string; summary_threshold: number; summary_threshold_tokens: number | null; backlog: string; backlog_tokens: string; token_total: string };
    const threads = threadUpsertParams(batch);
    const sql = single ? (threads ? POST_SQL.singleWithThreads : POST_SQL.single) : threads ? POST_SQL.batchWithThreads : POST_SQL.batch;
    const rows: BatchRow[] = await this.db.query(sql, [
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
