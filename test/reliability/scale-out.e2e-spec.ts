import { ApiClient } from '../support/http';
import { waitForSummary } from '../support/channel-helpers';
import { ServiceProcess, startServiceProcesses } from '../support/process-harness';
import { createTestDatabase, TEST_REDIS_URL } from '../support/test-database';
import { deleteRedisPrefix } from '../support/test-app';
import { LlmConcurrencyProbe, startLlmConcurrencyProbe } from './llm-concurrency-probe';
import { expectHistoryCoversExactlyOnce, summaryHistory } from './summary-history';

const CHANNELS = 10;
const POSTS = 1_000;
const AGENTS = 10;
/** Each model call takes this long, so jobs overlap in time and a second job per channel would show. */
const MODEL_DELAY_MS = 150;
const CONVERGE_TIMEOUT_MS = 120_000;

/**
 * DESIGN §8 scale-out: two API processes (QHORUS_ROLE=api) and one worker (QHORUS_ROLE=worker),
 * the built service, on one Postgres database and one Redis prefix. All three start at once
 * (so migrations race too).
 */
describe('scale-out: two API processes and a worker share one Postgres and one Redis', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let probe: LlmConcurrencyProbe;
  let apiA: ServiceProcess, apiB: ServiceProcess, worker: ServiceProcess;
  const queuePrefix = `qtest-scaleout-${process.pid}-${Date.now().toString(36)}`;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    db = await createTestDatabase('scaleout');
    probe = await startLlmConcurrencyProbe(MODEL_DELAY_MS);
    const common = {
      databaseUrl: db.url,
      redisUrl: TEST_REDIS_URL,
      queuePrefix,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: probe.baseURL, LOG_LEVEL: 'warn' },
    };
    const started = Date.now();
    [apiA, apiB, worker] = await startServiceProcesses([
      { ...common, name: 'api-a', role: 'api' },
      { ...common, name: 'api-b', role: 'api' },
      { ...common, name: 'worker', role: 'worker' },
    ]);
    figures.startAllMs = Date.now() - started;
  });

  afterAll(async () => {
    await Promise.all([apiA, apiB, worker].map((p) => p?.kill()));
    await probe?.close();
    await db?.drop();
    await deleteRedisPrefix(queuePrefix);
    console.log(`scale-out figures: ${JSON.stringify(figures)}`);
  });

  it(`takes ${POSTS} concurrent posts across both APIs into ${CHANNELS} channels with gapless seqs, and covers every message exactly once, one job per channel at a time`, async () => {
    const names = Array.from({ length: CHANNELS }, (_, i) => `scale-${i}`);
    for (const name of names) {
      const res = await apiA.admin.post('/api/v1/channels', { name, description: name, summariser: 'llm', summaryThreshold: 20 });
      expect(res.status).toBe(201);
    }
    const tokens: string[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const res = await apiB.admin.post('/api/v1/agents', { name: `fleet-${i}` });
      expect(res.status).toBe(201);
      tokens.push(res.body.token);
    }
    // Post i goes to API (i mod 2), channel (i mod 10), as agent (⌊i/10⌋ mod 10).
    const clients = [apiA, apiB].map((api) => tokens.map((t) => new ApiClient(api.baseUrl, t)));
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: POSTS }, (_, i) =>
        clients[i % 2][Math.floor(i / CHANNELS) % AGENTS].post(`/api/v1/channels/${names[i % CHANNELS]}/messages`, { content: `post ${i}` }),
      ),
    );
    figures.postAllMs = Date.now() - started;
    expect(results.filter((r) => r.status !== 201).map((r) => [r.status, r.body])).toEqual([]);

    const perChannel = POSTS / CHANNELS;
    for (const name of names) {
      const messages = (await apiA.admin.get(`/api/v1/channels/${name}/messages?limit=${perChannel * 2}`)).body;
      expect(messages.map((m: any) => m.seq)).toEqual(Array.from({ length: perChannel }, (_, i) => i + 1));
      const expected = Array.from({ length: perChannel }, (_, k) => `post ${k * CHANNELS + names.indexOf(name)}`).sort();
      expect(messages.map((m: any) => m.content).sort()).toEqual(expected);
    }

    const refreshed = Date.now();
    for (const [i, name] of names.entries()) expect((await [apiA, apiB][i % 2].admin.post(`/api/v1/channels/${name}/summary/refresh`)).status).toBe(202);
    for (const name of names) {
      await waitForSummary(apiB.admin, name, (s) => s.coversThroughSeq === perChannel && s.pending === 0, `${name} to be covered`, CONVERGE_TIMEOUT_MS);
    }
    figures.convergeAfterRefreshMs = Date.now() - refreshed;

    figures.summarySteps = 0;
    for (const name of names) {
      const history = await summaryHistory(apiA.admin, name);
      figures.summarySteps += history.length;
      expectHistoryCoversExactlyOnce(history, perChannel);
      const summary = (await apiA.admin.get(`/api/v1/channels/${name}/summary`)).body;
      expect(summary.version).toBe(history[history.length - 1].version);
      expect(summary.lastError).toBeNull();
    }
    expect([...probe.maxConcurrent.keys()].sort()).toEqual([...names].sort());
    for (const name of names) expect({ name, max: probe.maxConcurrent.get(name) }).toEqual({ name, max: 1 });
  });
});
