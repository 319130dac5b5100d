import { Client } from 'pg';
import { ApiClient, HttpResult, waitFor } from '../support/http';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';
import { TEST_PG_ADMIN_URL } from '../support/test-database';

const RECOVERY_TIMEOUT_MS = 60_000;
const POSTS_DURING_OUTAGE = 20;
/** QHORUS_DB_QUERY_TIMEOUT_MS for this app: in a partition, a query gives up after this long. */
const QUERY_TIMEOUT_MS = 2_000;

/**
 * Postgres becomes unreachable (the shared server is never stopped: the app reaches it through a
 * TCP proxy this test controls): first down (open connections reset, new ones refused), then
 * partitioned (connections stay open, nothing gets through, nobody is told).
 */
describe('Postgres outage: 503 with a clear message, health says so, and recovery by itself', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let pg: Client;
  let alice: ApiClient;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    const upstream = new URL(TEST_PG_ADMIN_URL);
    proxy = await TcpProxy.start({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    t = await startTestApp('pgoutage', {
      env: { QHORUS_DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) },
      connectVia: (url) => {
        const viaProxy = new URL(url);
        viaProxy.hostname = '127.0.0.1';
        viaProxy.port = String(proxy.port);
        return viaProxy.toString();
      },
    });
    pg = new Client({ connectionString: t.databaseUrl }); // direct, to count rows while the app cannot
    await pg.connect();
    alice = await t.agent('alice');
    expect((await alice.post('/api/v1/channels', { name: 'ledger' })).status).toBe(201);
    expect((await alice.post('/api/v1/channels/ledger/messages', { content: 'before' })).status).toBe(201);
  });
  afterAll(async () => {
    await pg?.end();
    await proxy?.restore();
    await t?.close();
    await proxy?.close();
    console.log(`postgres-outage figures: ${JSON.stringify(figures)}`);
  });

  const expect503 = (res: HttpResult, what: string) => {
    expect({ what, status: res.status }).toEqual({ what, status: 503 });
    expect(res.body).toEqual({ statusCode: 503, error: 'Service Unavailable', message: expect.stringMatching(/database is unreachable.*Idempotency-Key/i) });
  };

  it('answers 503 naming the database on every kind of request, and readiness reports it down', async () => {
    await proxy.cut();
    const started = Date.now();
    expect503(await alice.post('/api/v1/channels/ledger/messages', { content: 'during' }), 'a post');
    figures.first503Ms = Date.now() - started;
    expect503(await alice.get('/api/v1/channels/ledger/messages'), 'a read');
    expect503(await alice.get('/api/v1/channels/ledger/summary'), 'the summary');
    expect503(await t.admin.post('/api/v1/agents', { name: 'bob' }), 'registering an agent');
    // A token the app has not cached needs the database to be checked: 503 too, not 401.
    expect503(await alice.as('qh_some-token-never-seen').get('/api/v1/channels'), 'an unknown token');

    const health = await t.anonymous.get('/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ statusCode: 503, message: expect.stringMatching(/database is down/i) });
    // Anonymous callers learn which dependency is down, not the driver's text (addresses, ports).
    expect(JSON.stringify(health.body)).not.toMatch(/ECONN|127\.0\.0\.1|timed out|terminated/i);
    expect((await t.anonymous.get('/health/live')).status).toBe(200); // alive, just not ready
  });

  it('writes nothing for the 503s and keeps no half-written post', async () => {
    const answers = await Promise.all(Array.from({ length: POSTS_DURING_OUTAGE }, (_, i) => alice.post('/api/v1/channels/ledger/messages', { content: `lost ${i}` })));
    expect(answers.every((r) => r.status === 503)).toBe(true);
    const { rows } = await pg.query(`SELECT c.last_seq::int AS last, (SELECT count(*)::int FROM messages m WHERE m.channel_id = c.id) AS n FROM channels c WHERE c.name = 'ledger'`);
    expect(rows[0]).toEqual({ last: 1, n: 1 });
  });

  it('recovers by itself when Postgres is reachable again: no restart, no lost post', async () => {
    const restored = Date.now();
    await proxy.restore();
    const first = await waitFor(async () => {
      const res = await alice.post('/api/v1/channels/ledger/messages', { content: 'after' }, { 'idempotency-key': 'after-1' });
      return res.status === 201 || res.status === 200 ? res : null;
    }, 'a post to succeed again', RECOVERY_TIMEOUT_MS);
    figures.recoveredAfterMs = Date.now() - restored;
    expect(first.body.seq).toBe(2); // gapless: the refused posts took no seq
    await waitFor(async () => (await t.anonymous.get('/health')).status === 200, 'readiness to recover', RECOVERY_TIMEOUT_MS);
    const messages = (await alice.get('/api/v1/channels/ledger/messages')).body;
    expect(messages.map((m: { content: string }) => m.content)).toEqual(['before', 'after']);
    expect((await t.admin.post('/api/v1/agents', { name: 'bob' })).status).toBe(201);
  });
  it('answers 503 within seconds during a network partition (sockets open, nothing answers) instead of hanging, and the retry stores the post once', async () => {
    // Bounded by QHORUS_DB_QUERY_TIMEOUT_MS on pooled connections and the 5 s connect timeout on new ones.
    const before = (await alice.get('/api/v1/channels/ledger')).body.lastSeq;
    proxy.stall();
    const started = Date.now();
    const [post, read, health] = await Promise.all([
      alice.post('/api/v1/channels/ledger/messages', { content: 'in the partition' }, { 'idempotency-key': 'partition-1' }),
      alice.get('/api/v1/channels/ledger/messages'),
      t.anonymous.get('/health'),
    ]);
    figures.partitionAnswerMs = Date.now() - started;
    expect503(post, 'a post in the partition');
    expect503(read, 'a read in the partition');
    expect(health.status).toBe(503);

    // When the partition heals, a query that timed out may still commit: the retry with the same
    // key returns that message, or stores it now — either way exactly once.
    await proxy.restore();
    const retried = await waitFor(async () => {
      const res = await alice.post('/api/v1/channels/ledger/messages', { content: 'in the partition' }, { 'idempotency-key': 'partition-1' });
      return res.status === 201 || res.status === 200 ? res : null;
    }, 'the retry to succeed', RECOVERY_TIMEOUT_MS);
    figures.partitionRetryStatus = retried.status;
    expect(retried.body.seq).toBe(before + 1);
    const { rows } = await pg.query(`SELECT count(*)::int AS n FROM messages WHERE content = 'in the partition'`);
    expect(rows[0].n).toBe(1);
    await waitFor(async () => (await t.anonymous.get('/health')).status === 200, 'readiness to recover', RECOVERY_TIMEOUT_MS);
  });
});
