import { Client } from 'pg';
import { CONNECT_TIMEOUT_MS } from '../database/connection';
import { loadConfig } from '../config/app-config';
import { DatabaseConfig } from '../config/slices/database-config';
import { SearchConfig } from '../config/slices/search-config';
import { EmbeddedPostgres } from '../database/embedded-postgres';
import { runMigrations } from '../database/run-migrations';
import { canonicalConfig, ensureIndex, indexReady, runPass, SEARCH_INDEX_LOCK_KEY, SqlSession, switchConfig } from './search-index';

/** Progress is reported about this often, in rebuilt messages. */
const REPORT_EVERY = 100_000;
const LOCK_SQL = `SELECT pg_advisory_lock($1)`;

/**
 * `npm run search:reindex`: records QHORUS_SEARCH_CONFIG as the search configuration and rebuilds
 * every message's vector with it, in batches (QHORUS_SEARCH_REINDEX_BATCH), then makes sure the
 * GIN index is there. Runs against DATABASE_URL while the service keeps serving (search answers
 * from partly rebuilt vectors until it ends), or against the embedded database in QHORUS_DATA_DIR
 * (stop the service first: that database is one process's). Safe to interrupt and run again.
 */
export async function reindex(env: Record<string, string | undefined>, say: (line: string) => void): Promise<void> {
  const config = loadConfig(env);
  const search = new SearchConfig(config);
  const database = new DatabaseConfig(config);
  const embedded = database.embedded ? await EmbeddedPostgres.start(database.dataDir) : null;
  try {
    const url = embedded ? embedded.url : database.url!;
    await runMigrations(url, { serialise: !embedded });
    await embedded?.whenIdle();
    const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    await client.connect();
    try {
      const session: SqlSession = { query: async <Row>(text: string, values?: unknown[]) => (await client.query(text, values)).rows as Row[] };
      const wanted = await canonicalConfig(session, search.textSearchConfig);
      const through = await switchConfig(session, wanted);
      // One pass at a time: a service's upkeep still running stops at its next batch (the state moved on) and lets go.
      await session.query(LOCK_SQL, [SEARCH_INDEX_LOCK_KEY]);
      say(`search configuration is now '${wanted}'; rebuilding the vectors of messages up to id ${through}`);
      const started = Date.now();
      let reported = 0;
      const rebuilt = await runPass(session, search.reindexBatch, undefined, (p) => {
        if (p.rebuilt - reported < REPORT_EVERY) return;
        reported = p.rebuilt;
        say(`  ${p.rebuilt} messages rebuilt (through id ${p.after} of ${p.through})`);
      });
      say(`${rebuilt} messages rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (await ensureIndex(session)) say('search index built');
      else if (await indexReady(session)) say('search index in place');
    } finally {
      await client.end();
    }
  } finally {
    await embedded?.stop();
  }
}
