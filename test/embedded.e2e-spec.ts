import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../apps/channel-service/src/bootstrap';
import { loadConfig } from '../apps/channel-service/src/config/app-config';
import { Database } from '../apps/channel-service/src/database/database';
import { EmbeddedPostgres } from '../apps/channel-service/src/database/embedded-postgres';
import { runMigrations } from '../apps/channel-service/src/database/run-migrations';
import { poolConfig } from '../apps/channel-service/src/database/connection';
import { ApiClient, waitFor } from './support/http';
import { MIGRATIONS } from './support/migrations';
import { postMany, waitForSummary } from './support/channel-helpers';

/** The README's walk-through, on the embedded default: no DATABASE_URL, no REDIS_URL. */
describe('embedded default (PGlite + in-process jobs)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-embedded-'));
  let app: NestFastifyApplication | undefined;

  async function start(): Promise<ApiClient> {
    app = await createApp(loadConfig({ QHORUS_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    return new ApiClient(`http://127.0.0.1:${port}`);
  }

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the walk-through: register, create, post 25, read the summary; and keeps it across a restart', async () => {
    const anonymous = await start();
    // No QHORUS_ADMIN_TOKEN: one was generated and stored in the data dir.
    const adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const admin = anonymous.as(adminToken);

    const registered = await admin.post('/api/v1/agents', { name: 'alice' });
    expect(registered.status).toBe(201);
    const alice = anonymous.as(registered.body.token);
    expect((await alice.post('/api/v1/channels', { name: 'demo', description: 'the README walk-through' })).status).toBe(201);
    await postMany(alice, 'demo', 25, (i) => `message ${i + 1}`);

    const summary = await waitForSummary(alice, 'demo', (s) => s.version >= 1, 'the embedded summary');
    expect(summary.coversThroughSeq).toBeGreaterThanOrEqual(20);
    expect(summary.text).toContain('alice');
    expect(JSON.parse(summary.annotations.participants)).toEqual(['alice']);

    await app!.close();
    app = undefined;
    const again = (await start()).as(registered.body.token);
    const after = (await again.get('/api/v1/channels/demo/summary')).body;
    expect(after).toMatchObject({ version: summary.version, lastSeq: 25, coversThroughSeq: summary.coversThroughSeq });
  });

  it('hands PGlite from the migrations to the app pool: a query right after migrating gets a connection', async () => {
    // PGlite takes one client at a time and turns a second away; without whenIdle this fails at once.
    const handoverDir = mkdtempSync(join(tmpdir(), 'qhorus-handover-'));
    const embedded = await EmbeddedPostgres.start(handoverDir);
    const db = Database.open(poolConfig(embedded.url, 1));
    try {
      await runMigrations(embedded.url, { serialise: false });
      await embedded.whenIdle();
      expect(await db.query('SELECT count(*)::int AS n FROM qhorus_migrations')).toEqual([{ n: expect.any(Number) }]);
      // The migrations it found by path (database/connection.ts) are the listed ones, in order.
      const applied = await db.query<{ name: string }>('SELECT name FROM qhorus_migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
    } finally {
      await db.close();
      await embedded.stop();
      rmSync(handoverDir, { recursive: true, force: true });
    }
  });

  it('keeps the thread index, the inbox and thread summaries on PGlite too', async () => {
    const adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    await app?.close(); // one process owns the data dir
    const admin = (await start()).as(adminToken);
    const tokens = await Promise.all(['bob', 'carol'].map(async (name) => (await admin.post('/api/v1/agents', { name })).body.token as string));
    const [bob, carol] = tokens.map((token) => admin.as(token));
    expect((await bob.post('/api/v1/channels', { name: 'pglite-threads' })).status).toBe(201);
    await bob.post('/api/v1/channels/pglite-threads/messages', { type: 'QUERY', content: 'ready?', target: 'carol', correlationId: 'ready' });
    expect((await carol.get('/api/v1/inbox')).body.map((i: { correlationId: string }) => i.correlationId)).toEqual(['ready']);
    await carol.post('/api/v1/channels/pglite-threads/messages', { type: 'RESPONSE', content: 'yes', correlationId: 'ready' });
    expect((await carol.get('/api/v1/inbox')).body).toEqual([]);
    expect((await bob.get('/api/v1/channels/pglite-threads/threads/ready')).body).toMatchObject({ status: 'answered', closedSeq: 2 });
    const summary = await waitFor(async () => {
      const res = await bob.get('/api/v1/channels/pglite-threads/threads/ready/summary');
      return res.status === 200 ? res.body : null;
    }, 'the embedded thread summary');
    expect(summary).toMatchObject({ closedBy: 'RESPONSE', messageCount: 2 });
  });

  it('keeps serving after a statement is refused (a 409) and after the pool opens a new connection to PGlite\'s one session', async () => {
    await app?.close();
    const anonymous = await start();
    const admin = anonymous.as(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim());
    // Statements prepared on the first connection: the list, the register, the revoke.
    expect((await admin.get('/api/v1/agents')).status).toBe(200);
    expect((await admin.post('/api/v1/agents', { name: 'once' })).status).toBe(201);
    expect((await admin.request('DELETE', '/api/v1/agents/once')).status).toBe(200);
    expect((await admin.post('/api/v1/agents', { name: 'once' })).status).toBe(409); // Postgres refuses it (unique key)
    expect((await admin.post('/api/v1/channels', { name: 'taken' })).status).toBe(201);
    expect((await admin.post('/api/v1/channels', { name: 'taken' })).status).toBe(409);
    expect((await admin.get('/api/v1/agents')).status).toBe(200);
    expect((await admin.get('/api/v1/inbox')).status).toBe(200);

    // A new connection (as after an idle timeout or a dropped one) finds the session's statements cleared.
    const db = app!.get(Database);
    const pool = (db as unknown as { pool: { connect(): Promise<{ release(err?: Error): void }> } }).pool;
    (await pool.connect()).release(new Error('dropped by the test'));
    // PGlite turns a new client away until it has seen the old one go (a 503 meanwhile).
    await waitFor(async () => (await admin.get('/api/v1/agents')).status === 200, 'the new connection', 5_000, 20);
    expect((await admin.post('/api/v1/agents', { name: 'dave' })).status).toBe(201);
    expect((await admin.get('/health')).status).toBe(200);
  });
});
