import { NestFastifyApplication } from '@nestjs/platform-fastify';
import IORedis from 'ioredis';
import { AppModuleOptions } from '../../apps/channel-service/src/app.module';
import { createApp } from '../../apps/channel-service/src/bootstrap';
import { loadConfig } from '../../apps/channel-service/src/config/app-config';
import { ApiClient } from './http';
import { createTestDatabase, TEST_REDIS_URL } from './test-database';

export const TEST_ADMIN_TOKEN = 'qha_test-admin-token-0123456789';

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  admin: ApiClient;
  anonymous: ApiClient;
  databaseUrl: string;
  queuePrefix: string;
  /** Registers an agent and returns a client speaking as it. */
  agent(name: string): Promise<ApiClient>;
  close(): Promise<void>;
}

export interface TestAppOptions extends AppModuleOptions {
  env?: Record<string, string>;
  /** Use the in-process queue instead of BullMQ on the shared Redis. */
  inProcessQueue?: boolean;
  /** Called with the built app before it listens (e.g. to observe route registration). */
  beforeListen?: (app: NestFastifyApplication) => void;
  /** Rewrites the URL the app connects to Postgres with (e.g. through a TCP proxy the test controls). */
  connectVia?: (databaseUrl: string) => string;
}

/**
 * Boots the real service on a fresh database and its own Redis key prefix, listening on a
 * random loopback port. `close()` shuts it down and removes both.
 */
export async function startTestApp(label: string, options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(label);
  const queuePrefix = `qtest-${label}-${process.pid}-${Date.now().toString(36)}`;
  const config = loadConfig({
    DATABASE_URL: options.connectVia ? options.connectVia(db.url) : db.url,
    REDIS_URL: options.inProcessQueue ? undefined : TEST_REDIS_URL,
    QHORUS_QUEUE_PREFIX: queuePrefix,
    QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    QHORUS_JOB_BACKOFF_MS: '100',
    QHORUS_SWEEP_INTERVAL_MS: '500',
    LOG_LEVEL: process.env.QHORUS_TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    HOST: '127.0.0.1',
    ...options.env,
  });
  const app = await createApp(config, options);
  options.beforeListen?.(app);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const admin = new ApiClient(baseUrl, TEST_ADMIN_TOKEN);
  return {
    app,
    baseUrl,
    admin,
    anonymous: new ApiClient(baseUrl),
    databaseUrl: db.url,
    queuePrefix,
    async agent(name: string) {
      const res = await admin.post('/api/v1/agents', { name });
      if (res.status !== 201) throw new Error(`could not register ${name}: ${res.status} ${JSON.stringify(res.body)}`);
      return new ApiClient(baseUrl, res.body.token);
    },
    async close() {
      await app.close();
      await db.drop();
      if (!options.inProcessQueue) await deleteRedisPrefix(queuePrefix);
    },
  };
}

/**
 * A second API instance on the same Postgres and Redis prefix as `t` (QHORUS_ROLE=api, as when
 * scaled out): it runs no jobs and never saw the first instance's events. Close it yourself.
 */
export async function startAnotherInstance(t: TestApp, env: Record<string, string> = {}): Promise<{ app: NestFastifyApplication; baseUrl: string }> {
  const config = loadConfig({
    DATABASE_URL: t.databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    QHORUS_QUEUE_PREFIX: t.queuePrefix,
    QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    QHORUS_ROLE: 'api',
    LOG_LEVEL: process.env.QHORUS_TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, baseUrl: `http://127.0.0.1:${port}` };
}

export async function deleteRedisPrefix(prefix: string): Promise<void> {
  const redis = new IORedis(TEST_REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
