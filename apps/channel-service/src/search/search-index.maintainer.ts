import { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Client } from 'pg';
import { CONNECT_TIMEOUT_MS } from '../database/connection';
import { DatabaseConfig } from '../config/slices/database-config';
import { SearchConfig } from '../config/slices/search-config';
import { Database } from '../database/database';
import { canonicalConfig, ensureIndex, readState, REINDEX_COMMAND, runPass, SqlSession, switchConfig, withPassLock } from './search-index';

/**
 * Keeps the search index whole, at start-up: checks QHORUS_SEARCH_CONFIG against the database
 * (a name that is not a configuration stops the start, naming it), adopts it on a database that
 * has none yet, and logs a mismatch with the recorded one (search keeps the recorded one until
 * `npm run search:reindex`). Then, in the background, finishes any pending pass and builds the
 * GIN index CONCURRENTLY: one instance at a time (an advisory lock on a connection of its own,
 * without the pool's query timeout, since a concurrent build over millions of rows takes a while).
 * Embedded PGlite has one connection and one process: the pass runs on the app's own, no lock.
 */
export class SearchIndexMaintainer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('SearchIndex');
  private stopping = false;
  private work: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: Database,
    private readonly config: SearchConfig,
    private readonly database: DatabaseConfig,
  ) {}

  /** The start-up checks, while the app is being built (a StartupError there is reported as one line naming the knob). */
  static async prepare(db: Database, config: SearchConfig, database: DatabaseConfig): Promise<SearchIndexMaintainer> {
    const maintainer = new SearchIndexMaintainer(db, config, database);
    await maintainer.checkConfig();
    return maintainer;
  }

  private async checkConfig(): Promise<void> {
    const wanted = await canonicalConfig(this.db, this.config.textSearchConfig);
    const state = await readState(this.db);
    if (state.config === null) {
      const through = await switchConfig(this.db, wanted);
      this.logger.log({ config: wanted, messages: through }, 'search configuration recorded; existing messages are indexed in the background');
    } else if (state.config !== wanted) {
      this.logger.warn(
        { recorded: state.config, configured: wanted },
        `QHORUS_SEARCH_CONFIG differs from the configuration the search index was built with; search keeps using the recorded one until \`${REINDEX_COMMAND}\` rebuilds the index`,
      );
    }
  }

  onApplicationBootstrap(): void {
    this.work = this.maintain().catch((err: Error) => this.logger.error({ err: err.message }, 'search index upkeep failed; it is tried again at the next start'));
  }

  /** Resolves when the background upkeep has ended (tests, shutdown). */
  whenSettled(): Promise<void> {
    return this.work;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.work;
  }

  private async maintain(): Promise<void> {
    if (this.database.embedded) return this.upkeep(this.db);
    const client = new Client({ connectionString: this.database.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    client.on('error', (err) => this.logger.warn({ err: err.message }, 'the search index connection failed'));
    await client.connect();
    try {
      const session: SqlSession = { query: async <Row>(text: string, values?: unknown[]) => (await client.query(text, values)).rows as Row[] };
      const done = await withPassLock(session, () => this.upkeep(session));
      if (done === null) this.logger.debug('another instance keeps the search index');
    } finally {
      await client.end();
    }
  }

  private async upkeep(session: SqlSession): Promise<void> {
    const started = Date.now();
    const rebuilt = await runPass(session, this.config.reindexBatch, () => this.stopping);
    if (rebuilt > 0) this.logger.log({ messages: rebuilt, ms: Date.now() - started }, 'search vectors built');
    if (this.stopping) return;
    const indexStarted = Date.now();
    if (await ensureIndex(session)) this.logger.log({ ms: Date.now() - indexStarted }, 'search index built');
  }
}
