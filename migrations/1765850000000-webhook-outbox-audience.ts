import { MigrationInterface, QueryRunner } from 'typeorm';

/** The broadcast events a hook without a channel filter hears from every channel (common/webhook-outbox.ts). */
const UNSCOPED_EVENT_INDEXES: [string, string][] = [
  ['webhooks_unscoped_posted_idx', 'message.posted'],
  ['webhooks_unscoped_summary_idx', 'summary.updated'],
  ['webhooks_unscoped_closed_idx', 'thread.closed'],
];

/**
 * The post and summary statements write a webhook outbox row only when some enabled hook may
 * hear of it (issue 30: with 1,000 hooks on other channels, every post paid for an outbox row
 * and its fan-out). Their probes (common/webhook-outbox.ts) read the hooks without a channel
 * filter by event — one partial index per event, holding just those hooks, so the probe is an
 * index lookup whatever else is registered (a GIN index on `events` lost to a sequential scan
 * of 1,000 other hooks on the planner's estimate) — the hooks with one by channel
 * (webhooks_channels_idx), and addressed hooks by owner (webhooks_owner_idx). The channel GIN
 * index answers a probe on every post, so its pending list is off: registering a hook pays the
 * index update at once instead of every probe scanning the list. Nothing to backfill: indexes.
 */
export class WebhookOutboxAudience1765850000000 implements MigrationInterface {
  name = 'WebhookOutboxAudience1765850000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [index, event] of UNSCOPED_EVENT_INDEXES) {
      await q.query(`CREATE INDEX ${index} ON webhooks (id) WHERE disabled_at IS NULL AND channels IS NULL AND events @> '{${event}}'::text[]`);
    }
    await q.query(`ALTER INDEX webhooks_channels_idx SET (fastupdate = off)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX webhooks_channels_idx RESET (fastupdate)`);
    for (const [index] of UNSCOPED_EVENT_INDEXES) await q.query(`DROP INDEX ${index}`);
  }
}
