import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The post and summary statements write a webhook outbox row only when some enabled hook may
 * hear of it (issue 30: with 1,000 hooks on other channels, every post paid for an outbox row
 * and its fan-out). Their probes (common/webhook-outbox.ts) read hooks without a channel filter
 * by event, here, and hooks with one by channel (webhooks_channels_idx); addressed hooks by owner
 * (webhooks_owner_idx). Both GIN indexes answer a probe on every post, so their pending list is
 * off: inserts (a hook registered) pay the index update at once instead of every probe scanning
 * the list. Nothing to backfill: an index.
 */
export class WebhookOutboxAudience1765850000000 implements MigrationInterface {
  name = 'WebhookOutboxAudience1765850000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhooks_unscoped_events_idx ON webhooks USING gin (events) WITH (fastupdate = off) WHERE disabled_at IS NULL AND channels IS NULL`);
    await q.query(`ALTER INDEX webhooks_channels_idx SET (fastupdate = off)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER INDEX webhooks_channels_idx RESET (fastupdate)`);
    await q.query(`DROP INDEX webhooks_unscoped_events_idx`);
  }
}
