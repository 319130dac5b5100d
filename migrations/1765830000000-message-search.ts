import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over messages (DESIGN §12, issue 32): `messages.search_vector`, kept by a
 * trigger from content and topic in the text-search configuration recorded in `search_config`.
 *
 * Only O(1) work here: migrations run in one transaction, and over 1,000,000 messages a stored
 * generated column (a table rewrite) plus the GIN build held every post back for about 29 s
 * (docs/benchmarks.md). So the column is added without a default (catalogue only), and the
 * service fills it afterwards, outside any transaction (search/search-index.ts): the rows in
 * batches by id, then `CREATE INDEX CONCURRENTLY messages_search_idx`.
 *
 * - `search_config.config`: the configuration every vector is (being) built with, NULL until the
 *   service's first start adopts QHORUS_SEARCH_CONFIG. A NULL config gives NULL vectors, which
 *   the first pass fills. Kept as text, not regconfig: pg_upgrade refuses tables with reg* columns.
 * - `reindex_after`/`reindex_through`: a pass in progress (rows with id in (after, through] still
 *   to rebuild); both NULL when every vector is built with `config`.
 * - The trigger is the one place the document is defined; a pass rebuilds a row by firing it
 *   (`UPDATE … SET topic = topic`). NULL content or topic (a redaction) gives an empty vector.
 * - `search_config_switch(config, lockTimeoutMs)`: records a new configuration and starts a pass
 *   over every existing row, under a brief SHARE lock on messages, so no post can be built with
 *   the old configuration after the pass's bound was read.
 */
export class MessageSearch1765830000000 implements MigrationInterface {
  name = 'MessageSearch1765830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE messages ADD COLUMN search_vector tsvector`);
    await q.query(`
      CREATE TABLE search_config (
        singleton        boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        config           text,
        reindex_after    bigint,
        reindex_through  bigint,
        updated_at       timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO search_config DEFAULT VALUES`);
    await q.query(`
      CREATE FUNCTION messages_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT to_tsvector(s.config::regconfig, coalesce(NEW.content, '')) || to_tsvector(s.config::regconfig, coalesce(NEW.topic, ''))
          INTO NEW.search_vector FROM search_config s;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER messages_search_vector BEFORE INSERT OR UPDATE OF content, topic ON messages
      FOR EACH ROW EXECUTE FUNCTION messages_search_vector()`);
    await q.query(`
      CREATE FUNCTION search_config_switch(new_config text, lock_timeout_ms integer) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        through bigint;
      BEGIN
        PERFORM new_config::regconfig;
        PERFORM set_config('lock_timeout', lock_timeout_ms || 'ms', true);
        LOCK TABLE messages IN SHARE MODE;
        SELECT coalesce(max(id), 0) INTO through FROM messages;
        UPDATE search_config SET config = new_config, reindex_after = 0, reindex_through = through, updated_at = now();
        RETURN through;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS messages_search_idx`);
    await q.query(`DROP TRIGGER IF EXISTS messages_search_vector ON messages`);
    await q.query(`DROP FUNCTION IF EXISTS messages_search_vector()`);
    await q.query(`DROP FUNCTION IF EXISTS search_config_switch(text, integer)`);
    await q.query(`DROP TABLE IF EXISTS search_config`);
    await q.query(`ALTER TABLE messages DROP COLUMN IF EXISTS search_vector`);
  }
}
