import { Client } from 'pg';

/** An arbitrary, fixed key: every Qhorus instance on a database takes the same advisory lock. */
export const MIGRATION_LOCK_KEY = 0x5148_6f72; // "QHor"

/**
 * Runs `migrate` while holding a Postgres session advisory lock, so instances starting at the
 * same time (two APIs and a worker) run migrations one after another instead of racing to create
 * the same tables. The lock lives on its own connection, apart from the pool the migrations use,
 * and Postgres releases it by itself if this process dies.
 */
export async function withMigrationLock<T>(databaseUrl: string, migrate: () => Promise<T>): Promise<T> {
  const lock = new Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await migrate();
  } finally {
    await lock.end(); // ending the session releases the lock
  }
}
