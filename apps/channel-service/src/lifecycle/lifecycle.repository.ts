import { Injectable } from '@nestjs/common';
import { Database, Queryable } from '../database/database';
import { MESSAGE_COLUMNS, MessageRow } from '../message-store/message.entity';
import { summaryDueFlagSql } from '../channels/summary-backlog';

/**
 * The statements of the lifecycle operations (DESIGN §10). Each operation runs them in one
 * transaction, taking row locks in the order the summary commit takes them (slot, then channel)
 * and the post takes them (channel, then thread index), so none of them can deadlock with either.
 */

/**
 * The failure a summary job recorded goes with the versions a redaction or rebuild drops: its text
 * is a summariser's error message, which may quote the messages that job read (a custom
 * summariser's, a parse error's snippet of a model answer). It described a slot state that no
 * longer exists; the replay records its own. (The rewind's refresh request already lets the replay
 * past the failure backoff, so the time goes too.)
 */
const CLEAR_LAST_ERROR = 'last_error = NULL, last_error_at = NULL';

/** The summary slot, locked: a job's compare-and-set waits for the operation and then loses. */
const LOCK_SLOT_SQL = `
  SELECT s.version, s.covers_through_seq, s.base_version, b.covers_through_seq AS base_covers_through_seq
  FROM channel_summaries s
  LEFT JOIN channel_summary_history b ON b.channel_id = s.channel_id AND b.version = s.base_version
  WHERE s.channel_id = $1
  FOR UPDATE OF s`;

const FIND_MESSAGE_SQL = `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE channel_id = $1 AND seq = $2`;

/**
 * Tombstones in place: seq, sender, type, time, correlation id, target and reply kept; content,
 * topic, metadata and the idempotency request hash (a hash of the content confirms a guess of
 * it) gone. A derived column of content or topic (the search vector) clears with them.
 */
const TOMBSTONE_SQL = `
  UPDATE messages
  SET content = NULL, topic = NULL, metadata = NULL, request_hash = NULL,
      redacted_at = now(), redacted_by = $3, redaction_reason = $4
  WHERE channel_id = $1 AND seq = ANY($2::bigint[]) AND redacted_at IS NULL
  RETURNING ${MESSAGE_COLUMNS}`;

/**
 * The running token total just before `seq`'s watermark is reached again: the total at the
 * message at the watermark, or (that message removed by retention) just before the first kept
 * message after it, or 0.
 */
const tokensAt = (channel: string, watermark: string) => `COALESCE(
    (SELECT m.tokens_through FROM messages m WHERE m.channel_id = ${channel} AND m.seq = ${watermark}),
    (SELECT m.tokens_through - m.token_estimate FROM messages m WHERE m.channel_id = ${channel} AND m.seq > ${watermark} ORDER BY m.seq LIMIT 1),
    0)`;

/**
 * Rewinds the slot below `$2`: every history version whose watermark is at or past it goes; the
 * slot takes the newest kept version before it (no older than the base `$4`; none: empty) as a
 * new version number, so a job that read the slot before loses its compare-and-set. The channel
 * stays due until the watermark is back where it was (`refresh_through_seq`), so a job replays
 * forward over the redacted history. `$4` null: no base survives (none, or it covered `$2`).
 */
const REWIND_SQL = `
  WITH target AS (
    SELECT h.text, h.annotations, h.covers_through_seq FROM channel_summary_history h
    WHERE h.channel_id = $1 AND h.covers_through_seq < $2 AND ($4::int IS NULL OR h.version >= $4::int)
    ORDER BY h.version DESC LIMIT 1
  ), dropped AS (
    DELETE FROM channel_summary_history h WHERE h.channel_id = $1 AND h.covers_through_seq >= $2
  ), watermark AS (
    SELECT COALESCE((SELECT covers_through_seq FROM target), 0) AS seq
  )
  UPDATE channel_summaries s
  SET text = COALESCE((SELECT text FROM target), ''),
      annotations = COALESCE((SELECT annotations FROM target), '{}'::jsonb),
      covers_through_seq = w.seq,
      covers_through_tokens = ${tokensAt('$1', 'w.seq')},
      version = s.version + 1, updated_at = now(), updated_by = $3,
      refresh_through_seq = GREATEST(s.refresh_through_seq, s.covers_through_seq),
      refresh_requested_at = now(),
      base_version = $4::int,
      ${CLEAR_LAST_ERROR}
  FROM watermark w
  WHERE s.channel_id = $1
  RETURNING s.version, s.covers_through_seq`;

/**
 * A new slot version with the same text: a job that read the slot before loses its compare-and-set.
 * (Its recorded failure goes too: that job read the messages past the watermark.)
 */
const BUMP_SLOT_VERSION_SQL = `
  UPDATE channel_summaries s SET version = s.version + 1, updated_at = now(), updated_by = $2, ${CLEAR_LAST_ERROR}
  WHERE s.channel_id = $1 RETURNING s.version, s.covers_through_seq`;

/**
 * Every version dropped, the base included; the slot empty, due until the watermark reaches
 * today's lastSeq, so a job summarises the kept messages from nothing.
 */
const REBUILD_SQL = `
  WITH dropped AS (DELETE FROM channel_summary_history h WHERE h.channel_id = $1)
  UPDATE channel_summaries s
  SET text = '', annotations = '{}'::jsonb, covers_through_seq = 0,
      covers_through_tokens = ${tokensAt('$1', '0')},
      version = s.version + 1, updated_at = now(), updated_by = $2,
      refresh_through_seq = c.last_seq, refresh_requested_at = now(), base_version = NULL,
      ${CLEAR_LAST_ERROR}
  FROM channels c
  WHERE s.channel_id = $1 AND c.id = s.channel_id
  RETURNING s.version, s.covers_through_seq`;

/** What reads return changed without a post: the epoch moves (conditional reads, derived writers' guard); the due flag follows the watermark. */
const BUMP_EPOCH_SQL = `
  UPDATE channels c SET content_epoch = c.content_epoch + 1,
    summary_due = ${summaryDueFlagSql('c.last_seq', 'c.summary_threshold', 's.covers_through_seq')}
  FROM channel_summaries s WHERE c.id = $1 AND s.channel_id = c.id`;

/**
 * Thread summaries written from the content go; the threads become due again (the sweep summarises
 * the tombstoned thread), and a thread job's recorded failure (a summariser's message, which may
 * quote the thread) goes with its backoff.
 */
const DROP_THREAD_SUMMARIES_SQL = `DELETE FROM thread_summaries WHERE channel_id = $1 AND correlation_id = ANY($2::text[])`;
const THREADS_UNSUMMARISED_SQL = `
  UPDATE threads SET summarised_seq = NULL, summary_error = NULL, summary_error_at = NULL
  WHERE channel_id = $1 AND correlation_id = ANY($2::text[]) AND (summarised_seq IS NOT NULL OR summary_error IS NOT NULL)`;

/** Due thread jobs of a channel about to go (so their queued jobs can be removed). */
const THREAD_KEYS_SQL = `SELECT correlation_id FROM threads WHERE channel_id = $1 AND closed_seq IS NOT NULL AND (summarised_seq IS NULL OR summarised_seq < closed_seq)`;

/** The channel and, by cascade, every row derived from it; its creator's quota count gives the slot back. */
const DELETE_CHANNEL_SQL = `DELETE FROM channels WHERE id = $1 RETURNING created_by`;
const RELEASE_QUOTA_SQL = `UPDATE agents SET channels_created = channels_created - 1 WHERE name = $1 AND channels_created > 0`;

/**
 * The next channel (by id, after `$2`) holding messages of `$1` not yet redacted: one probe of the
 * (channel_id, sender, seq) index per channel, so an erase never scans the messages table.
 */
const NEXT_CHANNEL_WITH_SENDER_SQL = `
  SELECT c.id, c.name FROM channels c
  WHERE c.id > $2 AND EXISTS (SELECT 1 FROM messages m WHERE m.channel_id = c.id AND m.sender = $1 AND m.redacted_at IS NULL)
  ORDER BY c.id LIMIT 1`;
const SENDER_SEQS_SQL = `
  SELECT seq FROM messages WHERE channel_id = $1 AND sender = $2 AND redacted_at IS NULL ORDER BY seq LIMIT $3`;

export interface LockedSlot {
  version: number;
  coversThroughSeq: number;
  baseVersion: number | null;
  /** The base version's watermark (null without a base). */
  baseCoversThroughSeq: number | null;
}

export interface SlotVersion {
  version: number;
  coversThroughSeq: number;
}

interface SlotVersionRow {
  version: number;
  covers_through_seq: string;
}

const toSlotVersion = (r: SlotVersionRow): SlotVersion => ({ version: r.version, coversThroughSeq: Number(r.covers_through_seq) });

@Injectable()
export class LifecycleRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  async lockSlot(tx: Queryable, channelId: string): Promise<LockedSlot | null> {
    const rows = await tx.query<{ version: number; covers_through_seq: string; base_version: number | null; base_covers_through_seq: string | null }>(LOCK_SLOT_SQL, [channelId]);
    const r = rows[0];
    if (!r) return null;
    return {
      version: r.version,
      coversThroughSeq: Number(r.covers_through_seq),
      baseVersion: r.base_version,
      baseCoversThroughSeq: r.base_covers_through_seq === null ? null : Number(r.base_covers_through_seq),
    };
  }

  async findMessage(channelId: string, seq: number): Promise<MessageRow | null> {
    const rows = await this.db.query<MessageRow>(FIND_MESSAGE_SQL, [channelId, seq]);
    return rows[0] ?? null;
  }

  /** Tombstones those of `seqs` not yet redacted; returns them as they are now. */
  tombstone(tx: Queryable, channelId: string, seqs: readonly number[], by: string, reason: string): Promise<MessageRow[]> {
    return tx.query<MessageRow>(TOMBSTONE_SQL, [channelId, seqs, by, reason]);
  }

  async rewind(tx: Queryable, channelId: string, belowSeq: number, by: string, keepBase: number | null): Promise<SlotVersion> {
    const rows = await tx.query<SlotVersionRow>(REWIND_SQL, [channelId, belowSeq, by, keepBase]);
    return toSlotVersion(rows[0]);
  }

  async bumpSlotVersion(tx: Queryable, channelId: string, by: string): Promise<SlotVersion> {
    const rows = await tx.query<SlotVersionRow>(BUMP_SLOT_VERSION_SQL, [channelId, by]);
    return toSlotVersion(rows[0]);
  }

  async rebuild(tx: Queryable, channelId: string, by: string): Promise<SlotVersion> {
    const rows = await tx.query<SlotVersionRow>(REBUILD_SQL, [channelId, by]);
    return toSlotVersion(rows[0]);
  }

  async bumpEpoch(tx: Queryable, channelId: string): Promise<void> {
    await tx.query(BUMP_EPOCH_SQL, [channelId]);
  }

  async dropThreadSummaries(tx: Queryable, channelId: string, correlationIds: readonly string[]): Promise<void> {
    if (correlationIds.length === 0) return;
    await tx.query(DROP_THREAD_SUMMARIES_SQL, [channelId, correlationIds]);
    await tx.query(THREADS_UNSUMMARISED_SQL, [channelId, correlationIds]);
  }

  async dueThreadKeys(channelId: string): Promise<string[]> {
    const rows = await this.db.query<{ correlation_id: string }>(THREAD_KEYS_SQL, [channelId]);
    return rows.map((r) => r.correlation_id);
  }

  /** Deletes the channel (cascading to everything derived); false when it was already gone. */
  async deleteChannel(tx: Queryable, channelId: string): Promise<boolean> {
    const rows = await tx.query<{ created_by: string }>(DELETE_CHANNEL_SQL, [channelId]);
    if (!rows[0]) return false;
    await tx.query(RELEASE_QUOTA_SQL, [rows[0].created_by]);
    return true;
  }

  async nextChannelWithSender(sender: string, afterChannelId: string): Promise<{ id: string; name: string } | null> {
    const rows = await this.db.query<{ id: string; name: string }>(NEXT_CHANNEL_WITH_SENDER_SQL, [sender, afterChannelId]);
    return rows[0] ? { id: String(rows[0].id), name: rows[0].name } : null;
  }

  async senderSeqs(channelId: string, sender: string, limit: number): Promise<number[]> {
    const rows = await this.db.query<{ seq: string }>(SENDER_SEQS_SQL, [channelId, sender, limit]);
    return rows.map((r) => Number(r.seq));
  }
}
