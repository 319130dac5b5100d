import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 15 (tokens, quotas and cost):
 * - `agents.last_seen_at`, written behind in batches (never per request);
 * - `deployment_secrets`: the generated admin token's hash, one per database, so every instance
 *   on it accepts the same admin token (first start inserts if absent, all read it back);
 * - `channels (created_by)` index for the channels-per-agent quota;
 * - `channel_summaries.degraded`: why the summary is not model-written (budget), surviving commits;
 * - `channel_model_usage`: model calls and tokens per channel per UTC hour, for the budgets.
 */
export class Security1765400000000 implements MigrationInterface {
  name = 'Security1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents ADD COLUMN last_seen_at timestamptz`);
    await q.query(`
      CREATE TABLE deployment_secrets (
        name        text PRIMARY KEY,
        value       text NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX channels_created_by_idx ON channels (created_by)`);
    await q.query(`ALTER TABLE channel_summaries ADD COLUMN degraded text, ADD COLUMN degraded_at timestamptz`);
    await q.query(`
      CREATE TABLE channel_model_usage (
        channel_id     bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        hour_start     timestamp NOT NULL,
        calls          integer NOT NULL DEFAULT 0,
        input_tokens   bigint NOT NULL DEFAULT 0,
        output_tokens  bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (channel_id, hour_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS channel_model_usage`);
    await q.query(`ALTER TABLE channel_summaries DROP COLUMN IF EXISTS degraded, DROP COLUMN IF EXISTS degraded_at`);
    await q.query(`DROP INDEX IF EXISTS channels_created_by_idx`);
    await q.query(`DROP TABLE IF EXISTS deployment_secrets`);
    await q.query(`ALTER TABLE agents DROP COLUMN IF EXISTS last_seen_at`);
  }
}
