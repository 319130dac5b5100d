import { Client } from 'pg';
import { getSummary } from '../support/channel-helpers';
import { ApiClient, waitFor } from '../support/http';
import { RedisServer } from '../support/redis-server';
import { startAnotherInstance, startTestApp, TestApp } from '../support/test-app';
import { expectHistoryCoversExactlyOnce, summaryHistory } from './summary-history';

const POSTS = 500;
const IN_FLIGHT = 25;
const SWEEP_INTERVAL_MS = 2_000;
/** Generous on a shared 2-core machine: the contract is "within the sweep interval" plus Redis reconnect back-off. */
/**
 * A producer gives up on a Redis command after one failed reconnect (≤ 2 s of ioredis back-off).
 * Waiting longer than that before Redis returns makes sure no trigger from the posts is still
 * pending: whatever summarises the backlog afterwards can only be the sweep.
 */
const PENDING_TRIGGERS_EXPIRE_MS = 5_000;
const CONVERGE_TIMEOUT_MS = SWEEP_INTERVAL_MS + 60_000;
/**
 * Longer than ioredis gives a queued command by default (20 reconnect attempts, ~10.5 s of its
 * back-off): a SUBSCRIBE sent at start-up has then failed for good unless the subscriber waits.
 */
const LONGER_THAN_DEFAULT_RETRIES_MS = 12_000;

/**
 * DESIGN §4 step 6: Redis (the queue) goes away while agents keep posting. Posts are committed
 * to Postgres regardless; when Redis comes back EMPTY (no persistence, as after a failover),
 * the sweep re-derives the due channels from Postgres and the summary catches up with no new post.
 */
describe('Redis outage: posts still succeed, and summaries converge by themselves when Redis returns', () => {
  let redis: RedisServer;
  let t: TestApp;
  let pg: Client;
  let alice: ApiClient;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    redis = await RedisServer.start();
    t = await startTestApp('redisoutage', { env: { REDIS_URL: redis.url, QHORUS_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS) } });
    pg = new Client({ connectionString: t.databaseUrl });
    await pg.connect();
    alice = await t.agent('alice');
  });
  afterAll(async () => {
    await pg?.end();
    await t?.close();
    await redis?.stop();
    console.log(`redis-outage figures: ${JSON.stringify(figures)}`);
  });

  it(`stores all ${POSTS} posts made while Redis is down, then covers them all once Redis is back, without another post`, async () => {
    expect((await alice.post('/api/v1/channels', { name: 'outage', summaryThreshold: 20 })).status).toBe(201);
    await redis.stop();
    // Readiness stays 200 on an `all` instance (it still accepts posts) and says the queue is degraded.
    const health = await t.anonymous.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', details: { database: { status: 'up' }, queue: { status: 'degraded' } } });

    const started = Date.now();
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < POSTS) {
          const i = next++;
          statuses.push((await alice.post('/api/v1/channels/outage/messages', { content: `during the outage ${i}` })).status);
        }
      }),
    );
    figures.postsDuringOutageMs = Date.now() - started;
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    const { rows } = await pg.query(`SELECT count(*)::int AS n, count(DISTINCT m.seq)::int AS seqs, max(m.seq)::int AS last FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = 'outage'`);
    expect(rows[0]).toEqual({ n: POSTS, seqs: POSTS, last: POSTS }); // 0 lost, gapless

    const before = await getSummary(alice, 'outage');
    expect(before).toMatchObject({ lastSeq: POSTS, coversThroughSeq: 0, version: 0 }); // nothing ran without Redis

    await new Promise((r) => setTimeout(r, PENDING_TRIGGERS_EXPIRE_MS));
    const restarted = Date.now();
    await redis.start(); // same port, empty
    const converged = await waitFor(async () => {
      const s = await getSummary(alice, 'outage');
      return s.coversThroughSeq === POSTS ? s : null;
    }, 'the summary to cover the backlog', CONVERGE_TIMEOUT_MS);
    figures.convergeAfterRedisBackMs = Date.now() - restarted;
    expect(converged).toMatchObject({ lastSeq: POSTS, pending: 0, lastError: null });
    expectHistoryCoversExactlyOnce(await summaryHistory(alice, 'outage'), POSTS);
    await waitFor(async () => (await t.anonymous.get('/health')).body.status === 'ok', 'the queue to be reported up again', CONVERGE_TIMEOUT_MS);
  });

  it('keeps working after Redis is back: new posts trigger summaries as usual', async () => {
    const before = await getSummary(alice, 'outage');
    for (let i = 0; i < 20; i++) expect((await alice.post('/api/v1/channels/outage/messages', { content: `after ${i}` })).status).toBe(201);
    const after = await waitFor(async () => {
      const s = await getSummary(alice, 'outage');
      return s.coversThroughSeq === POSTS + 20 ? s : null;
    }, 'the next summary', CONVERGE_TIMEOUT_MS);
    expect(after.version).toBeGreaterThan(before.version);
  });

  it('an instance started while Redis is down hears revocations once Redis is back (its token cache is no refuge)', async () => {
    await redis.stop();
    const late = await startAnotherInstance(t, { env: { REDIS_URL: redis.url, QHORUS_TOKEN_CACHE_TTL_MS: '600000' } });
    try {
      await new Promise((resolve) => setTimeout(resolve, LONGER_THAN_DEFAULT_RETRIES_MS));
      await redis.start();
      const carol = await t.agent('carol-late');
      const atLate = new ApiClient(late.baseUrl, carol.token);
      expect((await atLate.get('/api/v1/channels')).status).toBe(200); // cached there for 10 minutes
      expect((await t.admin.request('DELETE', '/api/v1/agents/carol-late')).status).toBe(200);
      await waitFor(async () => (await atLate.get('/api/v1/channels')).status === 401, 'the revocation on the instance started without Redis', 15_000);
    } finally {
      await late.app.close();
    }
  });
});
