import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A manual refresh is recorded in Postgres, not only in the queue: `refresh_through_seq` is the
 * channel's lastSeq when a refresh was asked for, and the channel stays due until the watermark
 * reaches it. A refresh can then never be swallowed by a job already waiting for the channel, and
 * the sweep recovers it if the queue lost it.
 */
export class SummaryRefreshRequest1764500000000 implements MigrationInterface {
  name = 'SummaryRefreshRequest1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channel_summaries ADD COLUMN refresh_through_seq bigint NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channel_summaries DROP COLUMN refresh_through_seq`);
  }
}
