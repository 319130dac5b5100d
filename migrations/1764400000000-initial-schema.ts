import { MigrationInterface, QueryRunner } from 'typeorm';

/** The whole first schema: agents, channels, messages, summary slot, its history, thread summaries. */
export class InitialSchema1764400000000 implements MigrationInterface {
  name = 'InitialSchema1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE agents (
        id          bigserial PRIMARY KEY,
        name        text NOT NULL UNIQUE,
        token_hash  text NOT NULL UNIQUE,
        created_at  timestamptz NOT NULL DEFAULT now(),
        revoked_at  timestamptz
      )`);
    await q.query(`
      CREATE TABLE channels (
        id                    bigserial PRIMARY KEY,
        name                  text NOT NULL UNIQUE,
        description           text,
        summary_threshold     integer NOT NULL CHECK (summary_threshold >= 1),
        update_after_seconds  integer CHECK (update_after_seconds >= 1),
        summariser            text NOT NULL,
        members               text[],
        last_seq              bigint NOT NULL DEFAULT 0,
        created_by            text NOT NULL,
        created_at            timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE messages (
        id               bigserial PRIMARY KEY,
        channel_id       bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        seq              bigint NOT NULL,
        type             text NOT NULL,
        sender           text NOT NULL,
        content          text NOT NULL,
        topic            text NOT NULL DEFAULT 'general',
        correlation_id   text,
        in_reply_to      bigint,
        target           text,
        metadata         jsonb,
        idempotency_key  text,
        request_hash     text,
        created_at       timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT messages_channel_seq_unique UNIQUE (channel_id, seq),
        CONSTRAINT messages_idempotency_unique UNIQUE (channel_id, sender, idempotency_key)
      )`);
    await q.query(`CREATE INDEX messages_channel_correlation_idx ON messages (channel_id, correlation_id, seq) WHERE correlation_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE channel_summaries (
        channel_id          bigint PRIMARY KEY REFERENCES channels(id) ON DELETE CASCADE,
        text                text NOT NULL DEFAULT '',
        annotations         jsonb NOT NULL DEFAULT '{}'::jsonb,
        covers_through_seq  bigint NOT NULL DEFAULT 0,
        version             integer NOT NULL DEFAULT 0,
        updated_at          timestamptz,
        updated_by          text,
        last_error          text,
        last_error_at       timestamptz
      )`);
    await q.query(`
      CREATE TABLE channel_summary_history (
        id                  bigserial PRIMARY KEY,
        channel_id          bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        version             integer NOT NULL,
        text                text NOT NULL,
        annotations         jsonb NOT NULL,
        covers_from_seq     bigint NOT NULL,
        covers_through_seq  bigint NOT NULL,
        updated_by          text NOT NULL,
        created_at          timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT channel_summary_history_version_unique UNIQUE (channel_id, version)
      )`);
    await q.query(`
      CREATE TABLE thread_summaries (
        channel_id      bigint NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
        correlation_id  text NOT NULL,
        text            text NOT NULL,
        annotations     jsonb NOT NULL,
        first_seq       bigint NOT NULL,
        last_seq        bigint NOT NULL,
        message_count   integer NOT NULL,
        closed_by       text NOT NULL,
        created_at      timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (channel_id, correlation_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['thread_summaries', 'channel_summary_history', 'channel_summaries', 'messages', 'channels', 'agents']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
