import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data lifecycle (issue 29, DESIGN §10):
 * - `audit_log`: append-only (a trigger refuses UPDATE and DELETE) — who did what to which
 *   channel, when and why; never the removed content. The channel is a name, not a key, so a
 *   deleted channel's rows stay. `GET /audit?after=&limit=` pages it on its primary key.
 * - messages become tombstones in place: `content` and `topic` nullable, `redacted_at`,
 *   `redacted_by`, `redaction_reason`; a message without content is always a tombstone (CHECK).
 * - `channels.content_epoch`: bumped by every lifecycle operation that changes what reads return
 *   without a post (redaction, rebuild, retention pass); a derived writer that read content under
 *   one epoch must not commit under another, and conditional reads key on it.
 * - `channel_summaries.base_version`: the summary version retention pins as the channel's long
 *   memory (null = none). History pruning never drops it and a redaction never rewinds below it.
 * Nothing to backfill: no message is redacted, every epoch starts at 0, no channel has a base.
 */
export class DataLifecycle1765800000000 implements MigrationInterface {
  name = 'DataLifecycle1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id       bigserial PRIMARY KEY,
        at       timestamptz NOT NULL DEFAULT now(),
        actor    text NOT NULL,
        action   text NOT NULL,
        channel  text NOT NULL,
        seq      bigint,
        reason   text
      )`);
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`
      ALTER TABLE messages
        ALTER COLUMN content DROP NOT NULL,
        ALTER COLUMN topic DROP NOT NULL,
        ADD COLUMN redacted_at timestamptz,
        ADD COLUMN redacted_by text,
        ADD COLUMN redaction_reason text,
        ADD CONSTRAINT messages_content_unless_redacted CHECK (content IS NOT NULL OR redacted_at IS NOT NULL)`);
    await q.query(`ALTER TABLE channels ADD COLUMN content_epoch bigint NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE channel_summaries ADD COLUMN base_version integer`);
  }

  /** content and topic stay nullable: tombstones may exist, and their content is not coming back. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE channel_summaries DROP COLUMN IF EXISTS base_version`);
    await q.query(`ALTER TABLE channels DROP COLUMN IF EXISTS content_epoch`);
    await q.query(`
      ALTER TABLE messages
        DROP CONSTRAINT IF EXISTS messages_content_unless_redacted,
        DROP COLUMN IF EXISTS redaction_reason,
        DROP COLUMN IF EXISTS redacted_by,
        DROP COLUMN IF EXISTS redacted_at`);
    await q.query(`DROP TABLE IF EXISTS audit_log`);
    await q.query(`DROP FUNCTION IF EXISTS audit_log_append_only()`);
  }
}
