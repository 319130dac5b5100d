import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The per-agent channel quota, counted where it can be enforced exactly: `agents.channels_created`.
 * A create increments it with `channels_created < quota` in the same statement as the insert, so
 * concurrent creates by one agent serialise on its row and none passes the quota (counting the
 * committed channels in the insert's own snapshot let creates in flight overshoot). Backfilled
 * from the channels each agent created so far (channels cannot be deleted, so it only grows).
 */
export class ChannelQuotaCounter1765700000000 implements MigrationInterface {
  name = 'ChannelQuotaCounter1765700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents ADD COLUMN channels_created integer NOT NULL DEFAULT 0`);
    await q.query(`
      UPDATE agents a SET channels_created = n.created
      FROM (SELECT created_by, count(*)::integer AS created FROM channels GROUP BY created_by) n
      WHERE n.created_by = a.name`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents DROP COLUMN channels_created`);
  }
}
