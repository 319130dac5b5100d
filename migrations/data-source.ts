import type { PoolConfig } from 'pg';
import { DataSource, DataSourceOptions } from 'typeorm';
import { InitialSchema1764400000000 } from './1764400000000-initial-schema';
import { SummaryRefreshRequest1764500000000 } from './1764500000000-summary-refresh-request';
import { SummaryTokensAndRetention1765200000000 } from './1765200000000-summary-tokens-and-retention';
import { SummaryDueFlag1765300000000 } from './1765300000000-summary-due-flag';
import { Security1765400000000 } from './1765400000000-security';
import { CoordinationReads1765500000000 } from './1765500000000-coordination-reads';
import { ThreadIndex1765600000000 } from './1765600000000-thread-index';
import { ChannelQuotaCounter1765700000000 } from './1765700000000-channel-quota-counter';
import { DataLifecycle1765800000000 } from './1765800000000-data-lifecycle';

/** Every migration, in timestamp order. Listed explicitly so the app, the CLI and jest load the same set. */
export const MIGRATIONS = [
  InitialSchema1764400000000,
  SummaryRefreshRequest1764500000000,
  SummaryTokensAndRetention1765200000000,
  SummaryDueFlag1765300000000,
  Security1765400000000,
  CoordinationReads1765500000000,
  ThreadIndex1765600000000,
  ChannelQuotaCounter1765700000000,
  DataLifecycle1765800000000,
];

/** A connection attempt with no answer by then fails (a refused or black-holed server). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The one place that describes a connection to Postgres: the app's own `pg` pool (`Database`)
 * and TypeORM's (migrations, here and in the CLI) are both built from it.
 * `queryTimeoutMs`: a query with no answer by then fails (e.g. a network partition: the socket
 * stays open and nothing ever errors); unset = wait forever (the CLI).
 */
export function poolConfig(url: string, poolSize: number, queryTimeoutMs?: number): PoolConfig {
  return {
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(queryTimeoutMs ? { query_timeout: queryTimeoutMs } : {}),
  };
}

/** TypeORM's view of the same connection: it only runs migrations (synchronize off, no entities). */
export function dataSourceOptions(url: string, poolSize: number, queryTimeoutMs?: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'qhorus_migrations',
    entities: [],
    extra: poolConfig(url, poolSize, queryTimeoutMs),
  };
}

/** For the TypeORM CLI: `npx typeorm migration:run -d dist/migrations/data-source.js`. */
export default new DataSource(dataSourceOptions(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/qhorus', 1));
