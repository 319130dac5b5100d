import { Injectable } from '@nestjs/common';
import { Queryable } from '../database/database';
import { KeptVersion } from './retention-rule';

/** A channel the retention pass took, locked (its row and its summary slot) until the batch commits. */
export interface DueChannel {
  id: string;
  name: string;
  firstSeq: number;
  lastSeq: number;
  maxAgeDays: number | null;
  maxMessages: number | null;
  /** The database's clock when the batch was taken (messages' created_at are on it). */
  now: Date;
}

interface DueRow {
  id: string;
  name: string;
  first_seq: string;
  last_seq: string;
  retention_max_age_days: number | null;
  retention_max_messages: number | null;
  now: Date;
}

/**
 * The ONE query per batch: the due channels, oldest due first, from the partial index
 * channels_retention_due_idx alone (a range up to now), then each channel and its summary slot
 * looked up by key and locked. SKIP LOCKED: another instance's batch, a post or a summary commit
 * holding either row leaves the channel to a later batch instead of waiting (and the slot is
 * locked before the summary commit could take it, so the two never wait on each other in
 * opposite orders). The lookup is LATERAL so it stays two primary-key probes per due channel
 * whatever the planner guesses of the candidates (a join was planned as a scan of every slot).
 */
export const DUE_CHANNELS_SQL = `
  SELECT x.*, now() AS now
  FROM (SELECT id FROM channels WHERE retention_due_at <= now() ORDER BY retention_due_at LIMIT $1) d
  CROSS JOIN LATERAL (
    SELECT c.id, c.name, c.first_seq, c.last_seq, c.retention_max_age_days, c.retention_max_messages
    FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
    WHERE c.id = d.id
    FOR UPDATE OF c, s SKIP LOCKED
  ) x`;

/** The kept summary versions past the kept start (the history is bounded: a few dozen rows), each with the post time of the message at its watermark. */
const VERSIONS_SQL = `
  SELECT h.version, h.covers_through_seq, m.created_at AS covered_at
  FROM channel_summary_history h LEFT JOIN messages m ON m.channel_id = h.channel_id AND m.seq = h.covers_through_seq
  WHERE h.channel_id = $1 AND h.covers_through_seq >= $2`;

/** A range of the (channel_id, seq) key. */
const DELETE_MESSAGES_SQL = `
  WITH gone AS (DELETE FROM messages WHERE channel_id = $1 AND seq >= $2 AND seq <= $3 RETURNING 1)
  SELECT count(*)::int AS messages FROM gone`;

/**
 * Threads whose every message is gone (their newest is at or below the step's end), but open
 * ones: a range of threads_channel_updated_idx. Their thread summaries go with them.
 */
const DELETE_THREADS_SQL = `
  WITH gone AS (
    DELETE FROM threads WHERE channel_id = $1 AND updated_seq <= $2 AND status IS DISTINCT FROM 'open'
    RETURNING correlation_id
  ), summaries AS (
    DELETE FROM thread_summaries ts USING gone WHERE ts.channel_id = $1 AND ts.correlation_id = gone.correlation_id
  )
  SELECT count(*)::int AS threads FROM gone`;

const ADVANCE_SQL = `
  UPDATE channels SET first_seq = $2, content_epoch = content_epoch + 1, retention_due_at = $3, retention_due_seq = $4 WHERE id = $1`;

const PIN_BASE_SQL = `UPDATE channel_summaries SET base_version = $2 WHERE channel_id = $1`;

const REARM_SQL = `UPDATE channels SET retention_due_at = $2, retention_due_seq = $3 WHERE id = $1`;

/** When to look at a channel again: at a time (the age bound), at a lastSeq (the count bound, see the post statement), or both null. */
export interface NextLook {
  at: Date | null;
  seq: number | null;
}

/** What retention reads and writes; every method runs on the batch's transaction. */
@Injectable()
export class RetentionRepository {
  async takeDue(tx: Queryable, limit: number): Promise<DueChannel[]> {
    const rows = await tx.query<DueRow>(DUE_CHANNELS_SQL, [limit]);
    return rows.map((r) => ({
      id: String(r.id),
      name: r.name,
      firstSeq: Number(r.first_seq),
      lastSeq: Number(r.last_seq),
      maxAgeDays: r.retention_max_age_days,
      maxMessages: r.retention_max_messages,
      now: r.now,
    }));
  }

  async keptVersions(tx: Queryable, channelId: string, firstSeq: number): Promise<KeptVersion[]> {
    const rows = await tx.query<{ version: number; covers_through_seq: string; covered_at: Date | null }>(VERSIONS_SQL, [channelId, firstSeq]);
    return rows.map((r) => ({ version: r.version, coversThroughSeq: Number(r.covers_through_seq), coveredAt: r.covered_at }));
  }

  /**
   * Removes messages [fromSeq, throughSeq] and the closed threads left without messages, moves
   * the kept start past them, pins the base version and sets when to look again. Returns how
   * many messages and threads went.
   */
  async removeThrough(tx: Queryable, channelId: string, fromSeq: number, throughSeq: number, baseVersion: number, next: NextLook): Promise<{ messages: number; threads: number }> {
    const [{ messages }] = await tx.query<{ messages: number }>(DELETE_MESSAGES_SQL, [channelId, fromSeq, throughSeq]);
    const [{ threads }] = await tx.query<{ threads: number }>(DELETE_THREADS_SQL, [channelId, throughSeq]);
    await tx.query(ADVANCE_SQL, [channelId, throughSeq + 1, next.at, next.seq]);
    await tx.query(PIN_BASE_SQL, [channelId, baseVersion]);
    return { messages, threads };
  }

  async rearm(tx: Queryable, channelId: string, next: NextLook): Promise<void> {
    await tx.query(REARM_SQL, [channelId, next.at, next.seq]);
  }
}
