import { Injectable } from '@nestjs/common';
import { ADMIN_NAME } from '../auth/principal';
import { readableSql } from '../channels/channel-access';
import { Database } from '../database/database';
import { MESSAGE_COLUMNS, MessageRow } from '../message-store/message.entity';
import { qualifiedColumns } from '../database/column-list';
import { ClaimedDelivery, toWebhook, Webhook, WEBHOOK_ATTEMPT_COLUMNS, WEBHOOK_COLUMNS, WEBHOOK_TEST_EVENT, WebhookAttemptRow, WebhookRow } from './webhook.entity';

export interface NewWebhook {
  id: string;
  owner: string;
  url: string;
  events: string[];
  channels: string[] | null;
  types: string[] | null;
  secret: string;
}

/** Outbox rows fanned out to hooks per statement (one statement per round; a busy outbox takes more rounds). */
export const WEBHOOK_FANOUT_BATCH = 100;
if (!/^[a-z][a-z0-9_-]*$/.test(ADMIN_NAME)) throw new Error('the admin name is written into FAN_OUT_SQL as a literal: it must be a plain name');

/** Who is asking: the admin sees every hook, an agent its own. */
export interface HookViewer {
  name: string;
  admin: boolean;
}

// The quota is checked in the same statement (the admin is not limited).
const INSERT_SQL = `
  INSERT INTO webhooks (id, owner, url, events, channels, types, secret)
  SELECT $1, $2, $3, $4, $5, $6, $7
  WHERE $8 OR (SELECT count(*) FROM webhooks WHERE owner = $2) < $9
  RETURNING ${WEBHOOK_COLUMNS}`;
const LIST_ALL_SQL = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY created_at, id`;
const LIST_OWN_SQL = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE owner = $1 ORDER BY created_at, id`;
const FIND_SQL = `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND ($2 OR owner = $3)`;
const DELETE_SQL = `DELETE FROM webhooks WHERE id = $1 AND ($2 OR owner = $3) RETURNING ${WEBHOOK_COLUMNS}`;
const ATTEMPTS_SQL = `SELECT ${WEBHOOK_ATTEMPT_COLUMNS} FROM webhook_attempts WHERE webhook_id = $1 ORDER BY id DESC LIMIT $2`;
const ENQUEUE_TEST_SQL = `
  INSERT INTO webhook_deliveries (id, webhook_id, type, event_at) SELECT $2, id, '${WEBHOOK_TEST_EVENT}', now() FROM webhooks
  WHERE id = $1 AND disabled_at IS NULL RETURNING id`;
/** Whether any hook is enabled at all (the wake-up listener's switch for summary commits; webhooks_enabled_idx). */
const ANY_ENABLED_SQL = `SELECT EXISTS (SELECT 1 FROM webhooks WHERE disabled_at IS NULL) AS any`;

/**
 * Fans a batch of outbox rows out to the matching hooks, in one statement: the rows are taken
 * (SKIP LOCKED: workers share the outbox) and become one delivery per hook and event, each with
 * its own webhook-id. Matching reads the message's and thread's columns that decide who gets it,
 * never its content. The hooks that can match anything in the batch are found once per batch —
 * broadcast hooks (message.posted, summary.updated) of every channel or of one of the batch's
 * channels, and the hooks of the agents the batch addresses or whose threads it closes — so the
 * cost follows the hooks that may match, not every hook times every event. Then the channel access rule, in its SQL form, for the hook's
 * owner (checked again in process at delivery time, when it counts). No parameters (the batch size
 * and the admin's name are constants): Postgres plans it once per connection, not at every call.
 */
export const FAN_OUT_SQL = `
  WITH o AS (
    DELETE FROM webhook_outbox WHERE id IN (SELECT id FROM webhook_outbox ORDER BY id LIMIT ${WEBHOOK_FANOUT_BATCH} FOR UPDATE SKIP LOCKED)
    RETURNING channel_id, kind, seq, created_at
  ), ev AS (
    SELECT o.channel_id, o.kind, o.seq, o.created_at, c.name AS channel, c.members, m.type AS message_type, m.sender, m.target,
           t.closed_seq IS NOT NULL AND t.closed_seq = o.seq AS closed, t.opener
    FROM o JOIN channels c ON c.id = o.channel_id
    LEFT JOIN messages m ON o.kind = 'message' AND m.channel_id = o.channel_id AND m.seq = o.seq
    LEFT JOIN threads t ON t.channel_id = o.channel_id AND t.correlation_id = m.correlation_id
  ), hooks AS (
    SELECT h.id, h.owner, h.events, h.channels, h.types FROM webhooks h
    WHERE h.disabled_at IS NULL
      AND ((h.events && '{message.posted,summary.updated}' AND (h.channels IS NULL OR h.channels && (SELECT array_agg(DISTINCT channel) FROM ev)))
           OR h.owner = ANY(SELECT target FROM ev WHERE target IS NOT NULL UNION SELECT opener FROM ev WHERE closed))
  ), matched AS (
    SELECT ev.channel_id, ev.seq, ev.created_at, h.id AS webhook_id, e.type
    FROM ev JOIN hooks h ON h.channels IS NULL OR ev.channel = ANY(h.channels)
    CROSS JOIN LATERAL unnest(h.events) AS e(type)
    WHERE ${readableSql('ev.members', { name: 'h.owner', admin: `h.owner = '${ADMIN_NAME}'` })}
      AND NOT EXISTS (SELECT 1 FROM agents a WHERE a.name = h.owner AND a.revoked_at IS NOT NULL)
      AND CASE e.type
        WHEN 'message.posted' THEN ev.kind = 'message' AND ev.sender <> h.owner AND (h.types IS NULL OR ev.message_type = ANY(h.types))
        WHEN 'message.addressed' THEN ev.kind = 'message' AND ev.target = h.owner
        WHEN 'thread.closed' THEN ev.kind = 'message' AND ev.closed AND ev.opener = h.owner
        WHEN 'summary.updated' THEN ev.kind = 'summary'
        ELSE false END
  ), ins AS (
    INSERT INTO webhook_deliveries (id, webhook_id, type, channel_id, seq, event_at)
    SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), webhook_id, type, channel_id, seq, created_at FROM matched
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM o)::int AS events, (SELECT count(*) FROM ins)::int AS deliveries`;

/**
 * Claims up to $1 due deliveries: each is leased by moving its next_at $2 ms ahead (a worker
 * killed mid-delivery leaves it due again then, for another to take over) and its attempt counted.
 */
const CLAIM_SQL = `
  WITH due AS (
    SELECT id FROM webhook_deliveries WHERE next_at <= now() ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED
  ), claimed AS (
    UPDATE webhook_deliveries d SET attempt = d.attempt + 1, next_at = now() + make_interval(secs => $2::double precision / 1000)
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.webhook_id, d.type, d.channel_id, d.seq, d.event_at, d.attempt, d.created_at
  )
  SELECT claimed.*, h.url, h.secret, h.owner, h.disabled_at IS NOT NULL AS hook_disabled,
         EXISTS (SELECT 1 FROM agents a WHERE a.name = h.owner AND a.revoked_at IS NOT NULL) AS owner_revoked,
         c.name AS channel, c.members
  FROM claimed JOIN webhooks h ON h.id = claimed.webhook_id LEFT JOIN channels c ON c.id = claimed.channel_id`;

// The messages the claimed deliveries announce, by the (channel_id, seq) unique key.
const MESSAGES_AT_SQL = `
  SELECT m.channel_id, ${qualifiedColumns('m', MESSAGE_COLUMNS)} FROM unnest($1::bigint[], $2::bigint[]) AS k(channel_id, seq)
  JOIN messages m ON m.channel_id = k.channel_id AND m.seq = k.seq`;

// Outcomes hold only for the attempt this worker claimed: one taken over meanwhile is left to its new worker.
const DELIVERED_SQL = `DELETE FROM webhook_deliveries WHERE id = $1 AND attempt = $2 RETURNING id`;
/** Disables a hook (once: the first reason stays) and drops what it still had pending. */
const DISABLE_SQL = `
  WITH disabled AS (
    UPDATE webhooks SET disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND disabled_at IS NULL RETURNING id
  )
  DELETE FROM webhook_deliveries WHERE webhook_id = $1`;
/**
 * Logs an attempt ($1 hook, $2 event, $3 type, $4 attempt, $5 status, $6 ms, $7 error) and keeps
 * the newest $8 + 1 of the hook's (the DELETE sees the log as before the INSERT): CTEs an
 * outcome statement composes, so recording an attempt is one round trip. The trim skips the rows
 * another attempt's trim is deleting (SKIP LOCKED): the attempts of one busy hook, recorded
 * together, would otherwise wait for each other's commit, one at a time.
 */
const LOG_ATTEMPT_CTES = `
  logged AS (
    INSERT INTO webhook_attempts (webhook_id, event_id, type, attempt, status, duration_ms, error)
    SELECT id, $2, $3, $4, $5, $6, $7 FROM webhooks WHERE id = $1
  ), trimmed AS (
    DELETE FROM webhook_attempts WHERE id IN (
      SELECT id FROM webhook_attempts WHERE webhook_id = $1
        AND id <= (SELECT id FROM webhook_attempts WHERE webhook_id = $1 ORDER BY id DESC OFFSET $8 LIMIT 1)
      FOR UPDATE SKIP LOCKED
    )
  )`;
const LOG_ATTEMPT_SQL = `WITH ${LOG_ATTEMPT_CTES} SELECT 1`;
/** The attempt logged and its delivery done (gone from the schedule), if still this attempt's. */
const LOG_DELIVERED_SQL = `
  WITH ${LOG_ATTEMPT_CTES}, done AS (
    DELETE FROM webhook_deliveries WHERE id = $2 AND attempt = $4 RETURNING id
  )
  SELECT count(*)::int AS n FROM done`;
/** The attempt logged and its delivery due again in $9 ms, if still this attempt's. */
const LOG_RETRY_SQL = `
  WITH ${LOG_ATTEMPT_CTES}, retried AS (
    UPDATE webhook_deliveries SET next_at = now() + make_interval(secs => $9::double precision / 1000) WHERE id = $2 AND attempt = $4 RETURNING id
  )
  SELECT count(*)::int AS n FROM retried`;

export interface LoggedAttempt {
  webhookId: string;
  eventId: string;
  type: string;
  attempt: number;
  status: number | null;
  durationMs: number;
  error: string | null;
}

@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  /** The new hook; null when the owner's quota is reached. */
  async insert(h: NewWebhook, unlimited: boolean, quota: number): Promise<Webhook | null> {
    const rows: WebhookRow[] = await this.db.query(INSERT_SQL, [h.id, h.owner, h.url, h.events, h.channels, h.types, h.secret, unlimited, quota]);
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  async list(by: HookViewer): Promise<Webhook[]> {
    const rows: WebhookRow[] = by.admin ? await this.db.query(LIST_ALL_SQL) : await this.db.query(LIST_OWN_SQL, [by.name]);
    return rows.map(toWebhook);
  }

  async find(id: string, by: HookViewer): Promise<Webhook | null> {
    const rows: WebhookRow[] = await this.db.query(FIND_SQL, [id, by.admin, by.name]);
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  /** The hook as it was; null when there was none the viewer may manage. */
  async delete(id: string, by: HookViewer): Promise<Webhook | null> {
    const rows: WebhookRow[] = await this.db.query(DELETE_SQL, [id, by.admin, by.name]);
    return rows[0] ? toWebhook(rows[0]) : null;
  }

  async attempts(id: string, limit: number): Promise<WebhookAttemptRow[]> {
    return this.db.query(ATTEMPTS_SQL, [id, limit]);
  }

  /** A test event for the hook, due now; false when the hook is disabled. */
  async enqueueTest(id: string, eventId: string): Promise<boolean> {
    return (await this.db.query(ENQUEUE_TEST_SQL, [id, eventId])).length === 1;
  }

  async anyEnabled(): Promise<boolean> {
    const rows = await this.db.query<{ any: boolean }>(ANY_ENABLED_SQL);
    return rows[0].any;
  }

  /** One round of fan-out: how many outbox rows it took (at most WEBHOOK_FANOUT_BATCH) and the deliveries they became. */
  async fanOut(): Promise<{ events: number; deliveries: number }> {
    const rows = await this.db.query<{ events: number; deliveries: number }>(FAN_OUT_SQL);
    return rows[0];
  }

  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.db.query(CLAIM_SQL, [limit, leaseMs]);
  }

  /** The messages at these (channel id, seq) pairs, keyed `channelId:seq`. */
  async messagesAt(keys: readonly { channelId: string; seq: string }[]): Promise<Map<string, MessageRow>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db.query<MessageRow & { channel_id: string }>(MESSAGES_AT_SQL, [keys.map((k) => k.channelId), keys.map((k) => k.seq)]);
    return new Map(rows.map((r) => [`${r.channel_id}:${r.seq}`, r]));
  }

  /** False when the delivery was taken over (its attempt moved on): nothing changed. */
  async delivered(id: string, attempt: number): Promise<boolean> {
    return (await this.db.query(DELIVERED_SQL, [id, attempt])).length === 1;
  }

  async disable(id: string, reason: string): Promise<void> {
    await this.db.query(DISABLE_SQL, [id, reason]);
  }

  async logAttempt(a: LoggedAttempt, keep: number): Promise<void> {
    await this.db.query(LOG_ATTEMPT_SQL, attemptParams(a, keep));
  }

  /** Logs the attempt and ends its delivery, in one statement; false when it was taken over (logged all the same). */
  async logDelivered(a: LoggedAttempt, keep: number): Promise<boolean> {
    const [row] = await this.db.query<{ n: number }>(LOG_DELIVERED_SQL, attemptParams(a, keep));
    return row.n === 1;
  }

  /** Logs the attempt and makes its delivery due again in `delayMs`, in one statement; false when it was taken over. */
  async logRetry(a: LoggedAttempt, keep: number, delayMs: number): Promise<boolean> {
    const [row] = await this.db.query<{ n: number }>(LOG_RETRY_SQL, [...attemptParams(a, keep), delayMs]);
    return row.n === 1;
  }
}

/** The parameters of LOG_ATTEMPT_CTES: the attempt, and how many older ones to keep beside it. */
function attemptParams(a: LoggedAttempt, keep: number): unknown[] {
  return [a.webhookId, a.eventId, a.type, a.attempt, a.status, a.durationMs, a.error, keep - 1];
}
