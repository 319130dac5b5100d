import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (DESIGN §11): the subscriptions, the outbox the post and summary statements write in
 * the same statement as their own row, the pending deliveries (one per hook and event, the
 * schedule of its retries, leased by `next_at`) and the bounded log of attempts.
 * The outbox and the deliveries store references (channel, seq or version), never content: the
 * payload is rendered from the messages and summary tables at delivery time, so a redacted or
 * removed message is never sent from a copy. Everything tied to a channel goes with it.
 */
export class Webhooks1765820000000 implements MigrationInterface {
  name = 'Webhooks1765820000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhooks (
        id               text PRIMARY KEY,
        owner            text NOT NULL,
        url              text NOT NULL,
        events           text[] NOT NULL,
        channels         text[],
        types            text[],
        secret           text NOT NULL,
        created_at       timestamptz NOT NULL DEFAULT now(),
        disabled_at      timestamptz,
        disabled_reason  text
      )`);
    // GET /webhooks per owner, oldest first (and the fan-out of addressed events by owner); the post statement's "any hook enabled?" probe.
    await q.query(`CREATE INDEX webhooks_owner_idx ON webhooks (owner, created_at, id)`);
    await q.query(`CREATE INDEX webhooks_enabled_idx ON webhooks (id) WHERE disabled_at IS NULL`);
    // The fan-out's hooks of a batch's channels (it reads the enabled hooks once per batch, not per event).
    await q.query(`CREATE INDEX webhooks_channels_idx ON webhooks USING gin (channels) WHERE disabled_at IS NULL`);
    await q.query(`
      CREATE TABLE webhook_outbox (
        id          bigserial PRIMARY KEY,
        channel_id  bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        kind        text NOT NULL CHECK (kind IN ('message', 'summary')),
        seq         bigint NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_outbox_channel_idx ON webhook_outbox (channel_id)`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id          text PRIMARY KEY,
        webhook_id  text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        type        text NOT NULL,
        channel_id  bigint REFERENCES channels(id) ON DELETE CASCADE,
        seq         bigint,
        event_at    timestamptz NOT NULL,
        attempt     integer NOT NULL DEFAULT 0,
        next_at     timestamptz NOT NULL DEFAULT now(),
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_at)`);
    await q.query(`CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id)`);
    await q.query(`CREATE INDEX webhook_deliveries_channel_idx ON webhook_deliveries (channel_id)`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id           bigserial PRIMARY KEY,
        webhook_id   text NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_id     text NOT NULL,
        type         text NOT NULL,
        attempt      integer NOT NULL,
        status       integer,
        duration_ms  integer NOT NULL,
        error        text,
        at           timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX webhook_attempts_webhook_idx ON webhook_attempts (webhook_id, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_outbox`);
    await q.query(`DROP TABLE webhooks`);
  }
}
