/**
 * The webhook outbox as its writers compose it into their own statements (DESIGN §11: the event
 * is written in the same transaction as the message or summary it announces). One row per event,
 * a reference only — (channel, kind, seq or version), never content — fanned out to the matching
 * hooks by the deliverer (webhooks/).
 *
 * A row is written only when some enabled hook may hear of it: one that takes the event from
 * every channel or names this one, or, for an addressed message, one of the addressee's. So the
 * post pays a few index probes for hooks that cannot match (hooks on other channels, other
 * agents' addressed hooks) and no outbox row or fan-out (issue 30: ≤ 10 % with 1,000 hooks).
 * The probes are a superset of the fan-out's match (webhooks.repository.ts FAN_OUT_SQL), never
 * narrower: the fan-out decides, this only skips what it would find nothing for.
 */

/** Hook events whose audience is everyone who can read the channel, or one agent of it. */
type BroadcastEvent = 'message.posted' | 'summary.updated' | 'thread.closed';

/**
 * An enabled hook takes `event` from the channel named by the SQL expression `channel`: one
 * without a channel filter (webhooks_unscoped_{posted,summary,closed}_idx, whose predicates are these), or one
 * naming it (webhooks_channels_idx).
 */
function broadcastHeardSql(event: BroadcastEvent, channel: string): string {
  return `(EXISTS (SELECT 1 FROM webhooks WHERE disabled_at IS NULL AND channels IS NULL AND events @> '{${event}}'::text[])
        OR EXISTS (SELECT 1 FROM webhooks WHERE disabled_at IS NULL AND channels @> ARRAY[${channel}]::text[] AND events @> '{${event}}'::text[]))`;
}

/** The addressee `target` has an enabled message.addressed hook for the channel `channel` (webhooks_owner_idx). */
function addressedHeardSql(target: string, channel: string): string {
  return `(${target} IS NOT NULL AND EXISTS (SELECT 1 FROM webhooks WHERE owner = ${target} AND disabled_at IS NULL
          AND events @> '{message.addressed}'::text[] AND (channels IS NULL OR channels @> ARRAY[${channel}]::text[])))`;
}

/**
 * Whether some hook may hear of a message (SQL expressions for its channel's name, its target and
 * its correlation id). A message with a correlation id may close its thread: then thread.closed
 * hooks in scope count too (the opener is decided by the fan-out).
 */
export function messageHeardSql(m: { channel: string; target: string; correlationId: string }): string {
  return `(${broadcastHeardSql('message.posted', m.channel)}
     OR ${addressedHeardSql(m.target, m.channel)}
     OR (${m.correlationId} IS NOT NULL AND ${broadcastHeardSql('thread.closed', m.channel)}))`;
}

/** Whether some hook may hear of a summary of the channel named by `channel`. */
export function summaryHeardSql(channel: string): string {
  return broadcastHeardSql('summary.updated', channel);
}

/**
 * A data-modifying CTE body (`name AS (…)`) writing one outbox row per row of `source`, whose
 * columns `channelId` and `seq` give the reference, where `heard` (messageHeardSql or
 * summaryHeardSql) holds. EVENT telemetry is never announced: filter it in `where` (an SQL
 * condition on `source`'s columns, or 'true'). Returns the seqs written, so the statement can
 * say which of its rows a hook may hear of (the deliverers are woken for those only).
 */
export function webhookOutboxCte(name: string, kind: 'message' | 'summary', source: string, channelId: string, seq: string, heard: string, where = 'true'): string {
  return `${name} AS (
    INSERT INTO webhook_outbox (channel_id, kind, seq)
    SELECT ${channelId}, '${kind}', ${seq} FROM ${source} WHERE ${where} AND ${heard}
    RETURNING seq
  )`;
}
