import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sweep must not read every channel each round (its cost would grow with idle channels).
 * `channels.summary_due` says "the backlog reached the threshold": set by each post (one
 * expression in the post's own UPDATE; it only changes value when the backlog crosses the
 * threshold, so most posts stay HOT updates), recomputed by each summary commit and threshold
 * change. A partial index holds only the channels where it is true. Refresh requests, time
 * triggers and token triggers, the other ways to be due, get partial indexes of their own
 * (the last two only list the channels that opted in). Backfilled here.
 */
export class SummaryDueFlag1765300000000 implements MigrationInterface {
  name = 'SummaryDueFlag1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channels ADD COLUMN summary_due boolean NOT NULL DEFAULT false`);
    await q.query(`
      UPDATE channels c SET summary_due = true
      FROM channel_summaries s
      WHERE s.channel_id = c.id AND c.last_seq - s.covers_through_seq >= c.summary_threshold`);
    await q.query(`CREATE INDEX channels_summary_due_idx ON channels (id) WHERE summary_due`);
    await q.query(`CREATE INDEX channels_time_trigger_idx ON channels (id) WHERE update_after_seconds IS NOT NULL`);
    await q.query(`CREATE INDEX channels_token_trigger_idx ON channels (id) WHERE summary_threshold_tokens IS NOT NULL`);
    await q.query(`CREATE INDEX channel_summaries_refresh_asked_idx ON channel_summaries (channel_id) WHERE refresh_through_seq > covers_through_seq`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX channel_summaries_refresh_asked_idx`);
    await q.query(`DROP INDEX channels_token_trigger_idx`);
    await q.query(`DROP INDEX channels_time_trigger_idx`);
    await q.query(`DROP INDEX channels_summary_due_idx`);
    await q.query(`ALTER TABLE channels DROP COLUMN summary_due`);
  }
}
