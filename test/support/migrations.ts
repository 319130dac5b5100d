import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createApp } from '../../apps/channel-service/src/bootstrap';
import { loadConfig } from '../../apps/channel-service/src/config/app-config';
import { dataSourceOptions } from '../../apps/channel-service/src/database/connection';
import { InitialSchema1764400000000 } from '../../migrations/1764400000000-initial-schema';
import { SummaryRefreshRequest1764500000000 } from '../../migrations/1764500000000-summary-refresh-request';
import { SummaryTokensAndRetention1765200000000 } from '../../migrations/1765200000000-summary-tokens-and-retention';
import { SummaryDueFlag1765300000000 } from '../../migrations/1765300000000-summary-due-flag';
import { Security1765400000000 } from '../../migrations/1765400000000-security';
import { CoordinationReads1765500000000 } from '../../migrations/1765500000000-coordination-reads';
import { ThreadIndex1765600000000 } from '../../migrations/1765600000000-thread-index';
import { ChannelQuotaCounter1765700000000 } from '../../migrations/1765700000000-channel-quota-counter';
import { DataLifecycle1765800000000 } from '../../migrations/1765800000000-data-lifecycle';
import { RetentionArchive1765810000000 } from '../../migrations/1765810000000-retention-archive';
import { Webhooks1765820000000 } from '../../migrations/1765820000000-webhooks';
import { MessageSearch1765830000000 } from '../../migrations/1765830000000-message-search';
import { AuditLogNoTruncate1765840000000 } from '../../migrations/1765840000000-audit-log-no-truncate';
import { WebhookOutboxAudience1765850000000 } from '../../migrations/1765850000000-webhook-outbox-audience';
import { TEST_ADMIN_TOKEN } from './test-app';

/**
 * Every migration, in timestamp order, for a test that migrates to the schema of some release
 * (a slice of it). The app finds the same files by path (database/connection.ts); the test
 * "the listed migrations are the ones the app runs" (embedded.e2e-spec.ts) keeps the two equal.
 */
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
  RetentionArchive1765810000000,
  Webhooks1765820000000,
  MessageSearch1765830000000,
  AuditLogNoTruncate1765840000000,
  WebhookOutboxAudience1765850000000,
];

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
