import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentsRepository } from '../../apps/channel-service/src/auth/agents.repository';
import { ADMIN_TOKEN_FILE } from '../../apps/channel-service/src/auth/admin-token';
import { createApp } from '../../apps/channel-service/src/bootstrap';
import { loadConfig } from '../../apps/channel-service/src/config/app-config';
import { ApiClient } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';
import { createTestDatabase } from '../support/test-database';

const FLOOD = 2_000;
const WAVE = 50;
const FAILURE_BURST = 50;
const FAILURES_PER_SECOND = 1;

/** Sends `count` requests, WAVE at a time; returns how many got each status. */
async function flood(baseUrl: string, count: number, headersFor: (i: number) => Record<string, string>): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let start = 0; start < count; start += WAVE) {
    const wave = Array.from({ length: Math.min(WAVE, count - start) }, async (_, k) => {
      const res = await fetch(`${baseUrl}/api/v1/channels`, { headers: headersFor(start + k) });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    });
    await Promise.all(wave);
  }
  return statuses;
}

/** Issue 15, item 3: a bogus-token flood reaches Postgres a bounded number of times. */
describe.each([
  ['behind a trusted proxy (X-Forwarded-For believed from loopback)', 'loopback'],
  ['with no proxy trusted (a forged X-Forwarded-For changes nothing)', 'false'],
])('failed authentication is cheap and bounded, %s', (_, trustProxy) => {
  let t: TestApp;
  let lookups: jest.SpyInstance;
  const forged = trustProxy === 'false';

  beforeAll(async () => {
    t = await startTestApp(`auth-flood-${forged ? 'direct' : 'proxied'}`, {
      inProcessQueue: true,
      env: { QHORUS_AUTH_FAILURE_BURST: String(FAILURE_BURST), QHORUS_AUTH_FAILURES_PER_SECOND: String(FAILURES_PER_SECOND), QHORUS_TRUST_PROXY: trustProxy },
    });
    lookups = jest.spyOn(t.app.get(AgentsRepository), 'findNameByTokenHash');
  });
  afterAll(() => t?.close());
  beforeEach(() => lookups.mockClear());

  it(`${FLOOD} requests with one bogus token: one lookup, then 429 past the failure burst`, async () => {
    const statuses = await flood(t.baseUrl, FLOOD, () => ({ authorization: 'Bearer qh_the-same-bogus-token', 'x-forwarded-for': '203.0.113.1' }));
    expect(lookups).toHaveBeenCalledTimes(1);
    expect(statuses[401]).toBeGreaterThanOrEqual(FAILURE_BURST);
    expect(statuses[429]).toBeGreaterThan(0);
    expect((statuses[401] ?? 0) + (statuses[429] ?? 0)).toBe(FLOOD);
  });

  it(`${FLOOD} distinct bogus tokens: lookups stay within the failure burst (plus its refill), the rest is 429 without a query`, async () => {
    const startedAt = Date.now();
    // Forged addresses: a new one per request. Believed only from a trusted proxy.
    const statuses = await flood(t.baseUrl, FLOOD, (i) => ({
      authorization: `Bearer qh_bogus-${i}`,
      'x-forwarded-for': forged ? `198.51.100.${i % 250}` : '203.0.113.2',
    }));
    const refill = Math.ceil(((Date.now() - startedAt) / 1000) * FAILURES_PER_SECOND) + 1;
    expect(lookups.mock.calls.length).toBeLessThanOrEqual(FAILURE_BURST + refill);
    expect(statuses[429]).toBeGreaterThan(FLOOD - FAILURE_BURST - refill - 1);
  });

  it('a 429 names the limit and says when to retry; a valid agent from the same address still gets in', async () => {
    const address = forged ? undefined : '203.0.113.2';
    const headers: Record<string, string> = address ? { 'x-forwarded-for': address } : {};
    // The bucket refills meanwhile (FAILURES_PER_SECOND): spend what came back, then one more is refused.
    let refused = await new ApiClient(t.baseUrl, 'qh_yet-another-bogus-0').get('/api/v1/channels', headers);
    for (let i = 1; refused.status === 401 && i <= FAILURE_BURST; i++) refused = await new ApiClient(t.baseUrl, `qh_yet-another-bogus-${i}`).get('/api/v1/channels', headers);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/QHORUS_AUTH_FAILURE_BURST/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await t.admin.get('/api/v1/channels', headers)).status).toBe(200);
  });
});

/** Issue 15, item 2: one admin credential per database, whichever instance generated it. */
describe('the generated admin token is one for the whole deployment', () => {
  const dirs = [0, 1, 2].map((i) => mkdtempSync(join(tmpdir(), `qhorus-admin-${i}-`)));
  const apps: NestFastifyApplication[] = [];
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  async function start(dataDir: string, env: Record<string, string> = {}): Promise<string> {
    const config = loadConfig({ DATABASE_URL: db.url, QHORUS_DATA_DIR: dataDir, LOG_LEVEL: 'silent', QHORUS_QUEUE_PREFIX: `qtest-admin-${process.pid}`, ...env });
    const app = await createApp(config);
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
  }

  beforeAll(async () => {
    db = await createTestDatabase('admin-credential');
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('two instances starting together on one database agree on one token, which a third (no file) accepts too; QHORUS_ADMIN_TOKEN wins', async () => {
    const [first, second] = await Promise.all([start(dirs[0]), start(dirs[1])]);
    const files = dirs.slice(0, 2).filter((dir) => existsSync(join(dir, ADMIN_TOKEN_FILE)));
    expect(files).toHaveLength(1); // the instance that lost the race kept no file
    const token = readFileSync(join(files[0], ADMIN_TOKEN_FILE), 'utf8').trim();
    const third = await start(dirs[2]);
    expect(existsSync(join(dirs[2], ADMIN_TOKEN_FILE))).toBe(false);
    for (const [i, url] of [first, second, third].entries()) {
      const res = await new ApiClient(url, token).post('/api/v1/agents', { name: `made-on-${i}` });
      expect({ i, status: res.status }).toEqual({ i, status: 201 });
    }
    const own = 'qha_chosen-by-the-operator-0123';
    const chosen = await start(dirs[2], { QHORUS_ADMIN_TOKEN: own });
    expect((await new ApiClient(chosen, own).post('/api/v1/agents', { name: 'made-with-env' })).status).toBe(201);
    expect((await new ApiClient(chosen, token).get('/api/v1/agents')).status).toBe(401);
  });
});
