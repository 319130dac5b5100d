import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createApp } from '../../apps/channel-service/src/bootstrap';
import { loadConfig } from '../../apps/channel-service/src/config/app-config';
import { dataSourceOptions, MIGRATIONS } from '../../migrations/data-source';
import { TEST_ADMIN_TOKEN } from './test-app';

/** Runs `migrations` (in one transaction) on the database at `url`: the schema as of some release, for a migration test. */
export async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const ds = new DataSource({ ...dataSourceOptions(url, 1), migrations });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'all' });
  } finally {
    await ds.destroy();
  }
}

/** The service on an existing (migrated) database, listening on a free port; `env` adds knobs. */
export async function serveDatabase(url: string, env: Record<string, string> = {}): Promise<{ app: NestFastifyApplication; baseUrl: string }> {
  const config = loadConfig({ DATABASE_URL: url, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', ...env });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}
