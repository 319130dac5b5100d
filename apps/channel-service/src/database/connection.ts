import { extname, join } from 'node:path';
import type { PoolConfig } from 'pg';
import type { DataSourceOptions } from 'typeorm';

/** A connection attempt with no answer by then fails (a refused or black-holed server). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The migration files, found when TypeORM runs them: `migrations/` beside `apps/`, in the same
 * language as this file (its .ts under jest, its .js under `nest build`'s dist/). Named by their
 * timestamp, so `migrations/data-source.ts` (the CLI's entry) is not one. The app never imports
 * `migrations/` (the layer rule); migrations are history, loaded by path.
 */
const MIGRATION_FILES = join(__dirname, '..', '..', '..', '..', 'migrations', `[0-9]*${extname(__filename)}`);

/**
 * The one place that describes a connection to Postgres: the app's own `pg` pool (`Database`)
 * and TypeORM's (migrations, in the app and in the CLI) are both built from it.
 * `queryTimeoutMs`: a query with no answer by then fails (e.g. a network partition: the socket
 * stays open and nothing ever errors); unset = wait forever.
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
export function dataSourceOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations: [MIGRATION_FILES],
    migrationsTableName: 'qhorus_migrations',
    entities: [],
    extra: poolConfig(url, poolSize),
  };
}
