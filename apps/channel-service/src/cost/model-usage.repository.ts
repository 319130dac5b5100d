import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';

/** Budget windows are fixed UTC clock windows, computed by Postgres (one clock for every instance). */
const THIS_HOUR = `date_trunc('hour', now() AT TIME ZONE 'UTC')`;
const TODAY = `date_trunc('day', now() AT TIME ZONE 'UTC')`;

/**
 * Reserves one model call: adds it to this hour's count unless that reaches `$2` calls or today's
 * tokens already reached `$3`. One statement, so concurrent workers cannot both take the last call.
 */
const RESERVE_CALL_SQL = `
  WITH today AS (
    SELECT COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens
    FROM channel_model_usage WHERE channel_id = $1::bigint AND hour_start >= ${TODAY}
  )
  INSERT INTO channel_model_usage AS u (channel_id, hour_start, calls)
  SELECT $1::bigint, ${THIS_HOUR}, 1 FROM today WHERE today.tokens < $3::bigint
  ON CONFLICT (channel_id, hour_start) DO UPDATE SET calls = u.calls + 1 WHERE u.calls < $2::integer
  RETURNING u.calls`;

/** Adds an answered call's tokens to this hour, and drops the channel's rows older than yesterday. */
const ADD_TOKENS_SQL = `
  WITH pruned AS (DELETE FROM channel_model_usage WHERE channel_id = $1::bigint AND hour_start < ${TODAY} - interval '1 day')
  INSERT INTO channel_model_usage AS u (channel_id, hour_start, calls, input_tokens, output_tokens)
  VALUES ($1::bigint, ${THIS_HOUR}, 0, $2::bigint, $3::bigint)
  ON CONFLICT (channel_id, hour_start) DO UPDATE SET input_tokens = u.input_tokens + $2::bigint, output_tokens = u.output_tokens + $3::bigint`;

const USAGE_SQL = `
  SELECT COALESCE(SUM(calls) FILTER (WHERE hour_start = ${THIS_HOUR}), 0) AS calls_this_hour,
         COALESCE(SUM(input_tokens + output_tokens), 0) AS tokens_today
  FROM channel_model_usage WHERE channel_id = $1::bigint AND hour_start >= ${TODAY}`;

const MARK_DEGRADED_SQL = `UPDATE channel_summaries SET degraded = $2, degraded_at = now() WHERE channel_id = $1::bigint`;
const CLEAR_DEGRADED_SQL = `UPDATE channel_summaries SET degraded = NULL, degraded_at = NULL WHERE channel_id = $1::bigint AND degraded IS NOT NULL`;

/** The slot's last failure while it is recent: the channel's strategy is cooling down (the failure backoff of summary.repository.ts). */
const COOLING_DOWN_SQL = `
  SELECT last_error_at FROM channel_summaries
  WHERE channel_id = $1::bigint AND last_error_at > now() - make_interval(secs => $2::double precision / 1000)`;

export interface ModelUsageNow {
  callsThisHour: number;
  tokensToday: number;
}

/** Per-channel model usage, for the budgets (QHORUS_MODEL_CALLS_PER_HOUR, QHORUS_MODEL_TOKENS_PER_DAY). */
@Injectable()
export class ModelUsageRepository {
  constructor(private readonly db: Database) {}

  /** True when a call was reserved; false when the budget is spent (nothing changed). */
  async reserveCall(channelId: string, callsPerHour: number, tokensPerDay: number): Promise<boolean> {
    const rows = await this.db.query(RESERVE_CALL_SQL, [channelId, callsPerHour, tokensPerDay]);
    return rows.length === 1;
  }

  async addTokens(channelId: string, inputTokens: number, outputTokens: number): Promise<void> {
    await this.db.query(ADD_TOKENS_SQL, [channelId, inputTokens, outputTokens]);
  }

  async usage(channelId: string): Promise<ModelUsageNow> {
    const rows: { calls_this_hour: string; tokens_today: string }[] = await this.db.query(USAGE_SQL, [channelId]);
    return { callsThisHour: Number(rows[0]?.calls_this_hour ?? 0), tokensToday: Number(rows[0]?.tokens_today ?? 0) };
  }

  async markDegraded(channelId: string, reason: string): Promise<void> {
    await this.db.query(MARK_DEGRADED_SQL, [channelId, reason]);
  }

  async clearDegraded(channelId: string): Promise<void> {
    await this.db.query(CLEAR_DEGRADED_SQL, [channelId]);
  }

  /**
   * When the channel summary last failed, if within `backoffMs`; null when it did not. The time,
   * not the error's text: a summariser's message may quote the messages it read, and what is built
   * from this (a thread summary's `tierFallback`) would keep a copy a redaction cannot reach.
   */
  async coolingDown(channelId: string, backoffMs: number): Promise<Date | null> {
    const rows: { last_error_at: Date }[] = await this.db.query(COOLING_DOWN_SQL, [channelId, backoffMs]);
    return rows.length === 0 ? null : new Date(rows[0].last_error_at);
  }
}
