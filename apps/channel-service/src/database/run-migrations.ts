import { DataSource } from 'typeorm';
import { dataSourceOptions } from './connection';
import { withMigrationLock } from './migration-lock';

/** Migrations run in one transaction on one connection. */
const MIGRATION_POOL_SIZE = 1;

/**
 * Brings the schema up to date with TypeORM (its only job here; queries go through `Database`),
 * on a data source that is closed again before the app's pool opens — PGlite serves one
 * connection at a time. `serialise`: hold the migration advisory lock, for instances that may
 * start together on a real server.
 */
export async function runMigrations(url: string, { serialise }: { serialise: boolean }): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(url, MIGRATION_POOL_SIZE));
  await dataSource.initialize();
  try {
    const migrate = () => dataSource.runMigrations({ transaction: 'all' });
    await (serialise ? withMigrationLock(url, migrate) : migrate());
  } finally {
    await dataSource.destroy();
  }
}
