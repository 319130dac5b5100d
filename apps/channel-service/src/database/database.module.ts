import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../../migrations/data-source';
import { AppConfig } from '../config/app-config';
import { Database } from './database';
import { EmbeddedPostgres } from './embedded-postgres';
import { withMigrationLock } from './migration-lock';

const EMBEDDED = Symbol('EMBEDDED_POSTGRES');

/**
 * Owns the connection to Postgres: a real server when DATABASE_URL is set, otherwise the
 * embedded PGlite. Migrations run here, at start-up, in both cases.
 */
@Global()
@Module({
  providers: [
    {
      provide: EMBEDDED,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) =>
        config.embeddedDatabase ? EmbeddedPostgres.start(config.QHORUS_DATA_DIR) : null,
    },
    {
      provide: DataSource,
      inject: [AppConfig, EMBEDDED],
      useFactory: async (config: AppConfig, embedded: EmbeddedPostgres | null) => {
        const url = embedded ? embedded.url : config.DATABASE_URL!;
        const pool = embedded ? 1 : config.QHORUS_DB_POOL_SIZE;
        const dataSource = new DataSource(dataSourceOptions(url, pool, config.QHORUS_DB_QUERY_TIMEOUT_MS));
        await dataSource.initialize();
        const migrate = () => dataSource.runMigrations({ transaction: 'all' });
        // Embedded: one process owns the data dir. Real Postgres: instances may start together.
        await (embedded ? migrate() : withMigrationLock(url, migrate));
        return dataSource;
      },
    },
    { provide: Database, inject: [DataSource], useFactory: (dataSource: DataSource) => new Database(dataSource) },
  ],
  exports: [DataSource, Database],
})
export class DatabaseModule implements OnApplicationShutdown {
  private readonly logger = new Logger(DatabaseModule.name);
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EMBEDDED) private readonly embedded: EmbeddedPostgres | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    if (this.embedded) await this.embedded.stop();
    this.logger.log('database connections closed');
  }
}
