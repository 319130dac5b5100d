import { Client } from 'pg';

/** The shared Postgres of this machine and of CI (trust auth). */
export const TEST_PG_ADMIN_URL = process.env.QHORUS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.QHORUS_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function withDatabase(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A fresh database per test file, so suites run side by side; dropped by `drop()`. */
export async function createTestDatabase(label: string): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `qhorus_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(TEST_PG_ADMIN_URL, name),
    name,
    drop: async () => {
      const c = new Client({ connectionString: TEST_PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
