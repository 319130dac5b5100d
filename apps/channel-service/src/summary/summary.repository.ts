import { Injectable } from '@nestjs/common';
import { SummaryResult } from '@qhorus/api';
import { Database } from '../database/database';
import { summaryHeardSql, webhookOutboxCte } from '../common/webhook-outbox';
import {
  ChannelRow,
  CHANNEL_COLUMNS,
  toChannel,
  Channel,
  SUMMARY_CHANNEL_COLUMNS,
  SummaryChannel,
  SummaryChannelRow,
  toSummaryChannel,
} from '../channels/channel.entity';
import { summaryDueFlagSql } from '../channels/summary-backlog';
import { MESSAGE_COLUMNS, MessageRow } from '../message-store/message.entity';
import { SUMMARY_DUE_SQL } from './summary-due';
import { SLOT_COLUMNS, SummaryHistoryEntry, SummarySlot, SummarySlotRow, toSlot } from './channel-summary.entity';
import { columnNames, qualifiedColumns } from '../database/column-list';

/** The compare-and-set lost: someone else committed a newer version first. */
export class StaleSummaryVersionError extends Error {}

/** A due channel as a job starts on it: the channel, its slot and the first chunk of its backlog. */
export interface DueChannel {
  channel: Channel;
  slot: SummarySlot;
  /** Messages after the watermark up to the channel's lastSeq, in seq order, at most a chunk. */
  firstChunk: MessageRow[];
}

/** A committed summary step, and whether the channel was due again right after it (posts kept coming). */
export interface CommittedStep {
  slot: SummarySlot;
  dueAgain: boolean;
}

export interface SummaryCommit {
  channelId: string;
  /** History versions kept for the channel, this one included (QHORUS_SUMMARY_HISTORY_KEEP). */
  historyKeep: number;
  expectedVersion: number;
  result: SummaryResult;
  coversFromSeq: number;
  coversThroughSeq: number;
  updatedBy: string;
  /**
   * Set for a degraded step (a plain `llm` channel's model failed): why. It is kept as `lastError`
   * (so the failure cooldown holds) and as `degraded`. Null for a normal step, which clears
   * `lastError` and leaves `degraded` to the model meter (the next admitted model call clears it)
   * unless `clearDegraded`.
   */
  degraded?: string | null;
  /**
   * A normal step written by a strategy that calls no model (the channel was switched away from a
   * model-backed one): `degraded`, which says why the text is not model-written though the
   * strategy calls a model, no longer applies, and is cleared with the annotations that said it.
   */
  clearDegraded?: boolean;
}

/**
 * The failure backoff, one predicate for every path that starts a job (post, kept trigger, time
 * trigger, sweep, reconfiguration): a channel whose last attempt failed less than `backoffMs`
 * ago is left alone, so a dead summariser is not called again on every post. Only the job's own
 * retries (spaced by the queue's backoff) and a manual refresh asked for after the failure (an
 * explicit request, once) pass it.
 */
const coolingDown = (backoffMs: string) => `(s.last_error_at IS NOT NULL
  AND s.last_error_at > now() - make_interval(secs => ${backoffMs}::double precision / 1000)
  AND (s.refresh_requested_at IS NULL OR s.refresh_requested_at <= s.last_error_at))`;

const PREFIXED_CHANNEL_COLUMNS = qualifiedColumns('c', CHANNEL_COLUMNS);

const FIND_BY_CHANNEL_NAME_SQL = `SELECT ${PREFIXED_CHANNEL_COLUMNS}, ${SLOT_COLUMNS} FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = $1`;

/**
 * The summary read (the hot GET): only the channel columns its answer and the access rule use,
 * 17 columns instead of 24 (pg builds a parser per column of every result).
 */
const FIND_SUMMARY_BY_CHANNEL_NAME_SQL = `SELECT ${qualifiedColumns('c', SUMMARY_CHANNEL_COLUMNS)}, ${SLOT_COLUMNS}
  FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = $1`;

const MESSAGE_FIELDS = columnNames(MESSAGE_COLUMNS) as (keyof MessageRow)[];
/** Message columns next to channel and slot columns, whose names they share (id, created_at). */
const CHUNK_PREFIX = 'm_';
const CHUNK_COLUMNS = MESSAGE_FIELDS.map((c) => `m.${c} AS ${CHUNK_PREFIX}${c}`).join(', ');

/**
 * The channel and slot columns of a job's start, on the first row only (NULL on the others): the
 * driver parses every column of every row, and the slot's annotations (up to ~64 KB of JSON at
 * the open-thread cap) would otherwise be parsed once per message of the chunk.
 */
const FIRST_ROW = 'm.rn IS NULL OR m.rn = 1';
const onFirstRow = (columns: string) =>
  columnNames(columns)
    .map((c) => `CASE WHEN ${FIRST_ROW} THEN ${c} END AS ${c.slice(c.indexOf('.') + 1)}`)
    .join(', ');

// One round trip to start a job: channel, slot and first chunk, one row per message (the channel
// and slot columns on the first), or one row with no message, or none when the channel is not due.
const FIND_DUE_SQL = `
  SELECT ${onFirstRow(PREFIXED_CHANNEL_COLUMNS)}, ${onFirstRow(SLOT_COLUMNS)}, ${CHUNK_COLUMNS}
  FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
  LEFT JOIN LATERAL (
    SELECT chunk.*, row_number() OVER (ORDER BY chunk.seq) AS rn FROM (
      SELECT ${MESSAGE_COLUMNS} FROM messages
      WHERE channel_id = c.id AND seq > s.covers_through_seq AND seq <= c.last_seq
      ORDER BY seq LIMIT $2
    ) chunk
  ) m ON true
  WHERE c.id = $1 AND ${SUMMARY_DUE_SQL} AND ($3 OR NOT ${coolingDown('$4')})
  ORDER BY m.seq`;

const FIND_SLOT_SQL = `SELECT ${SLOT_COLUMNS} FROM channel_summaries s WHERE s.channel_id = $1`;

/** The committed slot but its text and annotations: the caller has them (the result it committed), unparsed. */
const COMMITTED_COLUMNS = columnNames(SLOT_COLUMNS)
  .filter((c) => c !== 's.text' && c !== 's.annotations')
  .join(', ');

// The running token total at the new watermark: one indexed lookup (0 before the first message).
// A degraded step ($9, why) keeps the failure as last_error (its time drives the cooldown) and in
// `degraded`; a normal one clears last_error and leaves `degraded` (the model meter owns clearing it),
// unless its strategy calls no model ($10): then `degraded` no longer applies and goes too.
// The history keeps the newest $8 versions: older ones are pruned by the same statement (the
// DELETE sees the table as before the INSERT, so the new row is never a candidate), but never the
// channel's base version (retention's long memory, DESIGN §10).
const COMMIT_SQL = `
  WITH committed AS (
    UPDATE channel_summaries s
    SET text = $3, annotations = $4, covers_through_seq = $5,
        covers_through_tokens = COALESCE((SELECT m.tokens_through FROM messages m WHERE m.channel_id = $1 AND m.seq = $5), 0),
        version = s.version + 1,
        updated_at = now(), updated_by = $6,
        last_error = $9::text, last_error_at = CASE WHEN $9::text IS NULL THEN NULL ELSE now() END,
        degraded = CASE WHEN $9::text IS NOT NULL THEN $9::text WHEN $10::boolean THEN NULL ELSE s.degraded END,
        degraded_at = CASE WHEN $9::text IS NOT NULL THEN now() WHEN $10::boolean THEN NULL ELSE s.degraded_at END
    WHERE s.channel_id = $1 AND s.version = $2
    RETURNING ${SLOT_COLUMNS}, s.refresh_through_seq, s.base_version
  ), due_flag AS (
    UPDATE channels c SET summary_due = ${summaryDueFlagSql('c.last_seq', 'c.summary_threshold', 'committed.covers_through_seq')},
      -- A new watermark may let retention remove more: the retention pass looks at the channel next run.
      retention_due_at = CASE WHEN c.retention_max_age_days IS NOT NULL OR c.retention_max_messages IS NOT NULL
                              THEN LEAST(c.retention_due_at, now()) ELSE c.retention_due_at END
    FROM committed WHERE c.id = committed.channel_id
  ), h AS (
    INSERT INTO channel_summary_history (channel_id, version, text, annotations, covers_from_seq, covers_through_seq, updated_by)
    SELECT channel_id, version, text, annotations, $7::bigint, covers_through_seq, updated_by FROM committed
  ), pruned AS (
    DELETE FROM channel_summary_history old USING committed
    WHERE old.channel_id = committed.channel_id AND old.version <= committed.version - $8::int
      AND old.version IS DISTINCT FROM committed.base_version
  ), ${webhookOutboxCte('wo', 'summary', 'committed', 'committed.channel_id', 'committed.version', summaryHeardSql('(SELECT name FROM channels WHERE id = committed.channel_id)'))}
  SELECT ${COMMITTED_COLUMNS}, (${SUMMARY_DUE_SQL}) AS due_again FROM committed s JOIN channels c ON c.id = s.channel_id`;

/**
 * The sweep's round, bounded: candidates come from four partial indexes only (backlog at the
 * threshold, a refresh asked for, a time trigger or a token trigger set), so idle channels cost nothing; each is
 * then looked up by key and the full DUE predicate re-checked (the `LIMIT 1` keeps that a
 * per-candidate lookup: Postgres cannot estimate the candidates and would otherwise hash every
 * channel); the least recently summarised go first, at most $2 a round.
 */
const DUE_CHANNEL_IDS_SQL = `
  SELECT d.id FROM (
      SELECT id FROM channels WHERE summary_due
      -- Bounded: Postgres cannot estimate a column-to-column comparison (it guesses a third of
      -- the table) and would plan, and JIT-compile, for 30,000 candidates instead of a handful.
      UNION (SELECT s.channel_id FROM channel_summaries s
             WHERE s.refresh_through_seq > s.covers_through_seq AND NOT ${coolingDown('$1')}
             LIMIT $2)
      UNION SELECT id FROM channels WHERE update_after_seconds IS NOT NULL
      UNION SELECT id FROM channels WHERE summary_threshold_tokens IS NOT NULL) k(id)
  CROSS JOIN LATERAL (
    SELECT c.id, s.updated_at FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
    WHERE c.id = k.id AND ${SUMMARY_DUE_SQL} AND NOT ${coolingDown('$1')}
    LIMIT 1) d
  ORDER BY d.updated_at NULLS FIRST, d.id
  LIMIT $2`;

/** Newest first, below `beforeVersion` (an index range on (channel_id, version)). */
const HISTORY_SQL = `
  SELECT version, text, annotations, covers_from_seq, covers_through_seq, updated_by, created_at
  FROM channel_summary_history WHERE channel_id = $1 AND version < $2 ORDER BY version DESC LIMIT $3`;

/** Above every version (versions are Postgres integers). */
const NO_VERSION_BOUND = 2_147_483_647;

const IS_DUE_SQL = `SELECT 1 FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.id = $1 AND ${SUMMARY_DUE_SQL}`;

@Injectable()
export class SummaryRepository {
  constructor(private readonly db: Database) {}

  /** The channel and its slot in one read (two primary-key rows). */
  async findByChannelName(name: string): Promise<{ channel: Channel; slot: SummarySlot } | null> {
    const rows = await this.db.query(
      FIND_BY_CHANNEL_NAME_SQL,
      [name],
    );
    return rows[0] ? { channel: toChannel(rows[0] as ChannelRow), slot: toSlot(rows[0] as SummarySlotRow) } : null;
  }

  /** The slot and what the summary read shows of its channel, in one read. */
  async findSummaryByChannelName(name: string): Promise<{ channel: SummaryChannel; slot: SummarySlot } | null> {
    const rows: (SummaryChannelRow & SummarySlotRow)[] = await this.db.query(FIND_SUMMARY_BY_CHANNEL_NAME_SQL, [name]);
    return rows[0] ? { channel: toSummaryChannel(rows[0]), slot: toSlot(rows[0]) } : null;
  }

  /**
   * The channel, its slot and the first `chunkSize` messages of its backlog when its summary is
   * due; null when it is not (or is gone), or when it failed within `backoff.ms` and this is not
   * a retry (`backoff.retry`: the queue's own backoff already spaced it).
   */
  async findDue(channelId: string, chunkSize: number, backoff: { ms: number; retry: boolean }): Promise<DueChannel | null> {
    // One row per chunk message: the channel's and slot's columns, and the message's under CHUNK_PREFIX.
    const rows = await this.db.query<ChannelRow & SummarySlotRow & Record<string, unknown>>(FIND_DUE_SQL, [channelId, chunkSize, backoff.retry, backoff.ms]);
    if (!rows[0]) return null;
    const firstChunk = rows[0][`${CHUNK_PREFIX}id`] === null ? [] : rows.map(chunkMessage);
    return { channel: toChannel(rows[0]), slot: toSlot(rows[0]), firstChunk };
  }

  async findSlot(channelId: string): Promise<SummarySlot | null> {
    const rows: SummarySlotRow[] = await this.db.query(FIND_SLOT_SQL, [channelId]);
    return rows[0] ? toSlot(rows[0]) : null;
  }

  /**
   * Commits a new version under an explicit version check and records it in the history, in ONE
   * statement (atomic by itself: one round trip instead of BEGIN, UPDATE, INSERT, COMMIT — this
   * runs once per summary step). Throws StaleSummaryVersionError when another writer got there first.
   * The returned slot carries the committed result's own text and annotations (not read back).
   */
  async commit(c: SummaryCommit): Promise<CommittedStep> {
    const rows: (Omit<SummarySlotRow, 'text' | 'annotations'> & { due_again: boolean })[] = await this.db.query(
      COMMIT_SQL,
      [c.channelId, c.expectedVersion, c.result.text, JSON.stringify(c.result.annotations), c.coversThroughSeq, c.updatedBy, c.coversFromSeq, c.historyKeep, c.degraded ?? null, c.clearDegraded ?? false],
    );
    if (rows.length !== 1) throw new StaleSummaryVersionError(`summary of channel ${c.channelId} is no longer at version ${c.expectedVersion}`);
    return { slot: toSlot({ ...rows[0], text: c.result.text, annotations: c.result.annotations }), dueAgain: rows[0].due_again };
  }

  /**
   * Records a manual refresh: the channel stays due until the watermark reaches today's lastSeq,
   * and the request (newer than any failure so far) lets one job past the failure backoff.
   */
  async requestRefresh(channelId: string): Promise<void> {
    await this.db.query(
      `UPDATE channel_summaries s SET refresh_through_seq = c.last_seq, refresh_requested_at = now()
       FROM channels c WHERE c.id = s.channel_id AND s.channel_id = $1`,
      [channelId],
    );
  }

  /** A failed job leaves text, annotations and watermark as they were; only the error is recorded. */
  async recordError(channelId: string, error: string): Promise<void> {
    await this.db.query(`UPDATE channel_summaries SET last_error = $2, last_error_at = now() WHERE channel_id = $1`, [channelId, error]);
  }

  /** Up to `limit` versions older than `beforeVersion` (all when undefined), newest first. */
  async history(channelId: string, limit: number, beforeVersion?: number): Promise<SummaryHistoryEntry[]> {
    const rows = await this.db.query<Record<string, unknown>>(HISTORY_SQL, [channelId, beforeVersion ?? NO_VERSION_BOUND, limit]);
    return rows.map((r: Record<string, unknown>) => ({
      version: r.version as number,
      text: r.text as string,
      annotations: r.annotations as Record<string, string>,
      coversFromSeq: Number(r.covers_from_seq),
      coversThroughSeq: Number(r.covers_through_seq),
      updatedBy: r.updated_by as string,
      createdAt: r.created_at as Date,
    }));
  }

  /**
   * Channels whose summary is due, derived from Postgres alone, at most `limit` of them. Channels
   * that failed recently are left alone for `errorBackoffMs` (the same backoff `findDue` applies).
   */
  async dueChannelIds(errorBackoffMs: number, limit: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(DUE_CHANNEL_IDS_SQL, [errorBackoffMs, limit]);
    return rows.map((r) => String(r.id));
  }

  async isDue(channelId: string): Promise<boolean> {
    const rows = await this.db.query(
      IS_DUE_SQL,
      [channelId],
    );
    return rows.length > 0;
  }
}

/** A message of `FIND_DUE_SQL`'s first chunk, from its prefixed columns. */
function chunkMessage(row: Record<string, unknown>): MessageRow {
  return Object.fromEntries(MESSAGE_FIELDS.map((c) => [c, row[`${CHUNK_PREFIX}${c}`]])) as unknown as MessageRow;
}
