/**
 * The webhook outbox as its writers compose it into their own statements (DESIGN §11: the event
 * is written in the same transaction as the message or summary it announces). One row per event,
 * a reference only — (channel, kind, seq or version), never content — fanned out to the matching
 * hooks by the deliverer (webhooks/). Written only while some hook is enabled: with none, the
 * post pays one probe of a partial index (webhooks_enabled_idx) and nothing more.
 */
export const ANY_WEBHOOK_ENABLED_SQL = `EXISTS (SELECT 1 FROM webhooks WHERE disabled_at IS NULL)`;

/**
 * A data-modifying CTE body (`name AS (…)`) writing one outbox row per row of `source`, whose
 * columns `channelId` and `seq` give the reference. EVENT telemetry is never announced: filter
 * it in `where` (an SQL condition on `source`'s columns, or 'true').
 */
export function webhookOutboxCte(name: string, kind: 'message' | 'summary', source: string, channelId: string, seq: string, where = 'true'): string {
  return `${name} AS (
    INSERT INTO webhook_outbox (channel_id, kind, seq)
    SELECT ${channelId}, '${kind}', ${seq} FROM ${source} WHERE ${where} AND ${ANY_WEBHOOK_ENABLED_SQL}
  )`;
}
