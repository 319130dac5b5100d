import { execFileSync } from 'node:child_process';
import { ApiClient, waitFor } from '../support/http';
import { ensureServiceBuilt, ServiceProcess, startServiceProcess } from '../support/process-harness';
import { RedisServer } from '../support/redis-server';
import { deleteRedisPrefix, startTestApp, TestApp } from '../support/test-app';
import { createTestDatabase, TEST_REDIS_URL } from '../support/test-database';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Loopback allowed, short retries; the lease is the takeover time of a killed worker's delivery. */
const LEASE_MS = 3_000;
const FAULT_ENV = {
  QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  QHORUS_WEBHOOK_BACKOFF_MIN_MS: '200',
  QHORUS_WEBHOOK_BACKOFF_MAX_MS: '1000',
  QHORUS_WEBHOOK_POLL_MS: '200',
  QHORUS_WEBHOOK_TIMEOUT_MS: '2000',
  QHORUS_WEBHOOK_LEASE_MS: String(LEASE_MS),
};
/** The held attempt must outlast finding and killing its worker: a longer timeout, and the lease above it. */
const KILL_LEASE_MS = 6_000;
const KILL_ENV = { ...FAULT_ENV, QHORUS_WEBHOOK_TIMEOUT_MS: '5000', QHORUS_WEBHOOK_LEASE_MS: String(KILL_LEASE_MS) };
const POSTS = 50;
const DELIVERY_TIMEOUT_MS = 60_000;

/** Which process owns the loopback client socket on this port (ss, as root here). */
function pidOfClientPort(port: number): number | null {
  const out = execFileSync('ss', ['-Htnp', 'state', 'established', `( sport = :${port} )`], { encoding: 'utf8' });
  const match = /pid=(\d+)/.exec(out);
  return match ? Number(match[1]) : null;
}

const seqsOf = (rx: WebhookReceiver) => new Set(rx.received.map((r) => r.json.data.seq as number));

describe('webhooks under faults (DESIGN §11: durable, at least once)', () => {
  describe('Redis down while messages are posted', () => {
    let redis: RedisServer;
    let t: TestApp;
    let rx: WebhookReceiver;

    beforeAll(async () => {
      redis = await RedisServer.start();
      rx = await new WebhookReceiver().start();
      t = await startTestApp('whredis', { env: { ...FAULT_ENV, REDIS_URL: redis.url } });
    });
    afterAll(async () => {
      await t?.close();
      await redis?.stop();
      await rx?.stop();
    });

    it(`delivers every one of ${POSTS} events posted while Redis was down, once it is back`, async () => {
      const alice = await t.agent('alice');
      await alice.post('/api/v1/channels', { name: 'outage', summaryThreshold: 10_000 });
      expect((await t.admin.post('/api/v1/webhooks', { url: rx.url, events: ['message.posted'], channels: ['outage'] })).status).toBe(201);
      await redis.stop();
      const posted: number[] = [];
      for (let i = 0; i < POSTS; i++) {
        const res = await alice.post('/api/v1/channels/outage/messages', { content: `during the outage ${i}` });
        expect(res.status).toBe(201);
        posted.push(res.body.seq);
      }
      await redis.start(); // empty: whatever the wake-ups carried is gone
      await waitFor(async () => posted.every((seq) => seqsOf(rx).has(seq)), `all ${POSTS} events`, DELIVERY_TIMEOUT_MS);
      // At least once, and a duplicate would carry the same id: one webhook-id per seq.
      const idsBySeq = new Map<number, Set<string>>();
      for (const r of rx.received) idsBySeq.set(r.json.data.seq, (idsBySeq.get(r.json.data.seq) ?? new Set()).add(r.headers['webhook-id']));
      expect([...idsBySeq.values()].every((ids) => ids.size === 1)).toBe(true);
    });
  });

  describe('the receiver down for a while', () => {
    let t: TestApp;
    let rx: WebhookReceiver;

    beforeAll(async () => {
      rx = await new WebhookReceiver().start();
      t = await startTestApp('whdown', { env: FAULT_ENV });
    });
    afterAll(async () => {
      await t?.close();
      await rx?.stop();
    });

    it('is retried on the backoff schedule and delivered, same id, when it comes back', async () => {
      const alice = await t.agent('alice');
      await alice.post('/api/v1/channels', { name: 'c', summaryThreshold: 10_000 });
      const hook = await t.admin.post('/api/v1/webhooks', { url: rx.url, events: ['message.posted'], channels: ['c'] });
      const port = Number(new URL(rx.url).port);
      await rx.stop();
      const sent = await alice.post('/api/v1/channels/c/messages', { content: 'while the receiver is away' });
      const refused = await waitFor(async () => {
        const log = (await t.admin.get(`/api/v1/webhooks/${hook.body.id}/deliveries`)).body;
        return log.length >= 4 && log;
      }, 'four refused attempts', DELIVERY_TIMEOUT_MS);
      expect(refused.every((a: any) => a.status === null && a.error === 'ECONNREFUSED')).toBe(true);
      // Spaced by the backoff: the wait after attempt n is at least half (the jitter) of min × 2^(n−1), capped at max.
      const [min, max] = [Number(FAULT_ENV.QHORUS_WEBHOOK_BACKOFF_MIN_MS), Number(FAULT_ENV.QHORUS_WEBHOOK_BACKOFF_MAX_MS)];
      const byAttempt = [...refused].sort((a: any, b: any) => a.attempt - b.attempt);
      expect(byAttempt.map((a: any) => a.attempt)).toEqual(byAttempt.map((_: unknown, i: number) => i + 1));
      const gaps = byAttempt.slice(1).map((a: any, i: number) => ({ after: i + 1, gapMs: Date.parse(a.at) - Date.parse(byAttempt[i].at), atLeastMs: Math.min(max, min * 2 ** i) / 2 - 20 }));
      expect(gaps.filter((g: { gapMs: number; atLeastMs: number }) => g.gapMs < g.atLeastMs)).toEqual([]);
      await rx.start(port);
      const [got] = await waitFor(async () => rx.received.length > 0 && rx.received, 'the delivery after the receiver came back', DELIVERY_TIMEOUT_MS);
      expect(got.json.data.seq).toBe(sent.body.seq);
      const log = (await t.admin.get(`/api/v1/webhooks/${hook.body.id}/deliveries`)).body;
      expect(log[0]).toMatchObject({ status: 200, eventId: got.headers['webhook-id'] });
      expect(new Set(log.map((a: any) => a.eventId))).toEqual(new Set([got.headers['webhook-id']]));
      expect((await t.admin.get(`/api/v1/webhooks/${hook.body.id}`)).body.disabledAt).toBeNull();
    });
  });

  describe('a worker killed (kill -9) mid-delivery', () => {
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    const running: ServiceProcess[] = [];
    const queuePrefix = `qtest-whkill-${process.pid}-${Date.now().toString(36)}`;
    let release: (status: number) => void = () => undefined;
    const rx = new WebhookReceiver((_r, nth) => (nth === 1 ? new Promise<number>((resolve) => (release = resolve)) : 200));

    const start = async (name: string, role: 'api' | 'worker') => {
      const p = await startServiceProcess({ name, role, databaseUrl: db.url, redisUrl: TEST_REDIS_URL, queuePrefix, env: KILL_ENV });
      running.push(p);
      return p;
    };

    beforeAll(async () => {
      await ensureServiceBuilt();
      db = await createTestDatabase('whkill');
      await rx.start();
    });
    afterAll(async () => {
      release(200);
      await Promise.all(running.map((p) => p.kill()));
      await rx.stop();
      await db?.drop();
      await deleteRedisPrefix(queuePrefix);
    });

    it('is taken over by another worker within the lease, with the same webhook-id', async () => {
      const api = await start('api', 'api');
      const workers = [await start('worker-1', 'worker'), await start('worker-2', 'worker')];
      const registered = await api.admin.post('/api/v1/agents', { name: 'poster' });
      const agent: ApiClient = api.client(registered.body.token);
      await agent.post('/api/v1/channels', { name: 'c', summaryThreshold: 10_000 });
      expect((await api.admin.post('/api/v1/webhooks', { url: rx.url, events: ['message.posted'] })).status).toBe(201);
      const sent = await agent.post('/api/v1/channels/c/messages', { content: 'deliver me' });
      const [held] = await waitFor(async () => rx.received.length === 1 && rx.received, 'the first attempt, held by the receiver', DELIVERY_TIMEOUT_MS);
      const holder = workers.find((w) => w.pid === pidOfClientPort(held.remotePort));
      if (!holder) throw new Error(`no worker owns the connection from port ${held.remotePort}`);
      await holder.stop('SIGKILL');
      const killedAt = Date.now();
      const retried = await waitFor(async () => rx.received.length >= 2 && rx.received[1], 'the delivery taken over', DELIVERY_TIMEOUT_MS);
      const takeoverMs = retried.at - killedAt;
      console.log(`webhook takeover after kill -9: ${takeoverMs} ms (lease ${KILL_LEASE_MS} ms)`);
      // Not before the lease ran out (the dead worker's claim held it), and soon after.
      expect(retried.at - held.at).toBeGreaterThanOrEqual(KILL_LEASE_MS - 1_000);
      expect(takeoverMs).toBeLessThan(KILL_LEASE_MS + 5_000);
      expect(retried.headers['webhook-id']).toBe(held.headers['webhook-id']);
      expect(retried.json.data.seq).toBe(sent.body.seq);
    });
  });
});
