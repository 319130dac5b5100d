import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Coordination reads (issue 16): one index per message filter (`type`, `sender`, `topic`,
 * `target`; `correlationId` already has `messages_channel_correlation_idx`), each ending in `seq`
 * so a filtered page is an ordered index range forwards (`afterSeq`) or backwards (`tail`,
 * `beforeSeq`); and the agents' read cursors. Nothing to backfill: no agent has read anything yet.
 */
export class CoordinationReads1765500000000 implements MigrationInterface {
  name = 'CoordinationReads1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX messages_channel_type_idx ON messages (channel_id, type, seq)`);
    await q.query(`CREATE INDEX messages_channel_sender_idx ON messages (channel_id, sender, seq)`);
    await q.query(`CREATE INDEX messages_channel_topic_idx ON messages (channel_id, topic, seq)`);
    await q.query(`CREATE INDEX messages_channel_target_idx ON messages (channel_id, target, seq) WHERE target IS NOT NULL`);
    // Keyed by (channel, agent): a channel list joins it on both, a mark_read upserts one row.
    await q.query(`
      CREATE TABLE read_cursors (
        channel_id    bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        agent         text NOT NULL,
        through_seq   bigint NOT NULL CHECK (through_seq >= 0),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (channel_id, agent)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS read_cursors`);
    for (const index of ['messages_channel_type_idx', 'messages_channel_sender_idx', 'messages_channel_topic_idx', 'messages_channel_target_idx']) {
      await q.query(`DROP INDEX IF EXISTS ${index}`);
    }
  }
}
