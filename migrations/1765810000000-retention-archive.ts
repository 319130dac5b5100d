import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention and archive (issue 29, DESIGN §10):
 * - `channels.retention_max_age_days`, `channels.retention_max_messages`: the channel's bounds
 *   (NULL: none; both NULL: kept for ever);
 * - `channels.first_seq`: the oldest kept seq (1 until retention removes anything; a channel's
 *   seqs below it are gone). Nothing removed yet, so the default is every channel's value;
 * - `channels.retention_due_at`: when the retention pass should next look at the channel (a
 *   summary commit on a channel with retention sets it to now, a pass sets it from the age bound
 *   or clears it). Its partial index is how the pass finds due channels without reading the
 *   others or any message;
 * - `channels.retention_due_seq`: the lastSeq at which the count bound next lets a kept summary
 *   version go; the post statement sets `retention_due_at` when lastSeq reaches it (once: the pass
 *   moves it on), so a capped channel is looked at as soon as posts push a version past the cap;
 * - `channels.archived_at`: archived (read-only, no summary jobs) since then; NULL: not archived;
 * - `threads (channel_id, updated_seq)`: the threads whose messages a retention step removed
 *   (their newest message is at or below the step's end) are a range of it, not a scan of the
 *   channel's threads.
 */
export class RetentionArchive1765810000000 implements MigrationInterface {
  name = 'RetentionArchive1765810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE channels
        ADD COLUMN retention_max_age_days integer CHECK (retention_max_age_days >= 1),
        ADD COLUMN retention_max_messages integer CHECK (retention_max_messages >= 1),
        ADD COLUMN first_seq bigint NOT NULL DEFAULT 1,
        ADD COLUMN retention_due_at timestamptz,
        ADD COLUMN retention_due_seq bigint,
        ADD COLUMN archived_at timestamptz`);
    await q.query(`CREATE INDEX channels_retention_due_idx ON channels (retention_due_at) WHERE retention_due_at IS NOT NULL`);
    await q.query(`CREATE INDEX threads_channel_updated_idx ON threads (channel_id, updated_seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS threads_channel_updated_idx`);
    await q.query(`DROP INDEX IF EXISTS channels_retention_due_idx`);
    await q.query(`ALTER TABLE channels DROP COLUMN archived_at, DROP COLUMN retention_due_seq, DROP COLUMN retention_due_at, DROP COLUMN first_seq,
      DROP COLUMN retention_max_messages, DROP COLUMN retention_max_age_days`);
  }
}
