import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { poolConfig } from './connection';
import { DatabaseConfig } from '../config/slices/database-config';
import { Database } from './database';
import { EmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './run-migrations';

const EMBEDDED = Symbol('EMBEDDED_POSTGRES');

/** PGlite serves one connection at a time (embedded-postgres.ts). */
const EMBEDDED_POOL_SIZE = 1;
/** pg-pool's "never close an idle connection". */
const EMBEDDED_IDLE_TIMEOUT_NEVER = 0;

/**
 * Owns the connection to Postgres: a real server when DATABASE_URL is set, otherwise the
 * embedded PGlite. At start-up the migrations run first (TypeORM, its own short-lived
 * connection), then `Database` opens the app's pool.
 */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDED,
      inject: [DatabaseConfig],
      useFactory: async (config: DatabaseConfig) => (config.embedded ? EmbeddedPostgres.start(config.dataDir) : null),
    },
    {
      provide: Database,
      inject: [DatabaseConfig, EMBEDDED],
      useFactory: async (config: DatabaseConfig, embedded: EmbeddedPostgres | null) => {
        const url = embedded ? embedded.url : config.url!;
        // Embedded: one process owns the data dir. Real Postgres: instances may start together.
        await runMigrations(url, { serialise: !embedded });
        await embedded?.whenIdle(); // the migrations' connection has gone: the pool's may come
        const poolSize = embedded ? EMBEDDED_POOL_SIZE : config.poolSize;
        const pool = poolConfig(url, poolSize, config.queryTimeoutMs);
        if (!embedded) return Database.open(pool);
        // Its one connection is kept, not closed when idle: PGlite turns a new client away until
        // it has seen the old one go, so a reconnect can fail the query that caused it.
        return Database.open({ ...pool, idleTimeoutMillis: EMBEDDED_IDLE_TIMEOUT_NEVER }, { sessionOutlivesConnection: true });
      },
    },
  ],
  exports: [Database],
})
export class DatabaseModule implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseModule.name);
  constructor(
    private readonly db: Database,
    @Inject(EMBEDDED) private readonly embedded: EmbeddedPostgres | null,
  ) {}

  /** After every beforeApplicationShutdown hook (jobs drained, streams closed): the pool, then PGlite under it. */
  async onApplicationShutdown(): Promise<void> {
    await this.db.close();
    if (this.embedded) await this.embedded.stop();
    this.logger.log('database connections closed');
  }
}
