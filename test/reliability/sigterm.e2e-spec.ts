import { Client } from 'pg';
import { ApiClient, waitFor } from '../support/http';
import { waitForSummary } from '../support/channel-helpers';
import { ensureServiceBuilt, ServiceOptions, ServiceProcess, startServiceProcess } from '../support/process-harness';
import { deleteRedisPrefix } from '../support/test-app';
import { createTestDatabase, TEST_REDIS_URL } from '../support/test-database';
import { LlmConcurrencyProbe, startLlmConcurrencyProbe } from './llm-concurrency-probe';
import { expectHistoryCoversExactlyOnce, summaryHistory } from './summary-history';

/** How long the test keeps the model call held after SIGTERM, to show the process waits for it. */
const HOLD_AFTER_SIGTERM_MS = 1_500;
/** Shutdown grace for the hand-back case: the held job outlives it. */
const SHORT_GRACE_MS = 1_000;
/** Generous: the job is moved back to waiting at shutdown, so the next process takes it as soon as it starts (test/reliability/job-takeover.e2e-spec.ts measures it). */
const HANDBACK_TIMEOUT_MS = 150_000;
const STREAM_POSTS = 300;
const STREAM_CONCURRENCY = 20;
const SIGTERM_AFTER_ANSWERS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** SIGTERM to the built service, as an orchestrator sends it; a restart on the same Postgres and Redis. */
describe('SIGTERM: in-flight work finishes or is handed back; nothing is lost across a restart', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let probe: LlmConcurrencyProbe;
  const running: ServiceProcess[] = [];
  const queuePrefix = `qtest-sigterm-${process.pid}-${Date.now().toString(36)}`;
  const figures: Record<string, number> = {};

  async function start(name: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const options: ServiceOptions = {
      name,
      databaseUrl: db.url,
      redisUrl: TEST_REDIS_URL,
      queuePrefix,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: probe.baseURL, QHORUS_LLM_TIMEOUT_MS: '300000', QHORUS_SUMMARY_TIMEOUT_MS: '600000', QHORUS_MODEL_SUMMARISER_POLICY: 'anyone', QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: '1', LOG_LEVEL: 'warn', ...env },
    };
    const service = await startServiceProcess(options);
    running.push(service);
    return service;
  }

  async function slot(channel: string): Promise<{ version: number; covers: number; lastError: string | null }> {
    const { rows } = await pg.query(
      `SELECT s.version, s.covers_through_seq::int AS covers, s.last_error FROM channel_summaries s JOIN channels c ON c.id = s.channel_id WHERE c.name = $1`,
      [channel],
    );
    return { version: rows[0].version, covers: rows[0].covers, lastError: rows[0].last_error };
  }

  async function messageSeqs(channel: string): Promise<number[]> {
    const { rows } = await pg.query(`SELECT m.seq::int AS seq FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = $1 ORDER BY m.seq`, [channel]);
    return rows.map((r) => r.seq);
  }

  async function registerAgent(service: ServiceProcess, name: string): Promise<ApiClient> {
    const res = await service.admin.post('/api/v1/agents', { name });
    expect(res.status).toBe(201);
    return service.client(res.body.token);
  }

  beforeAll(async () => {
    await ensureServiceBuilt();
    db = await createTestDatabase('sigterm');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    probe = await startLlmConcurrencyProbe(0);
  });
  afterEach(async () => {
    probe.release();
    await Promise.all(running.splice(0).map((p) => p.kill()));
  });
  afterAll(async () => {
    await pg?.end();
    await probe?.close();
    await db?.drop();
    await deleteRedisPrefix(queuePrefix);
    console.log(`sigterm figures: ${JSON.stringify(figures)}`);
  });

  it('lets a summary job that is running at SIGTERM finish and commit before the process exits (an open SSE stream does not hold it up)', async () => {
    const service = await start('drain');
    const agent = await registerAgent(service, 'drainer');
    await agent.post('/api/v1/channels', { name: 'drain', description: 'drain', summariser: 'llm', summaryThreshold: 5 });
    const listener = await fetch(`${service.baseUrl}/api/v1/channels/drain/events`, { headers: { authorization: `Bearer ${agent.token}` } });
    expect(listener.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const streamEnded = listener.body!.pipeTo(new WritableStream()).then(
      () => 'ended',
      () => 'ended',
    );
    probe.hold();
    for (let i = 0; i < 5; i++) expect((await agent.post('/api/v1/channels/drain/messages', { content: `m${i}` })).status).toBe(201);
    await waitFor(async () => probe.inFlight() === 1, 'the summary job to call the model');

    const signalled = Date.now();
    const exit = service.stop('SIGTERM');
    await sleep(HOLD_AFTER_SIGTERM_MS);
    expect(service.hasExited).toBe(false); // still draining: the job is in flight
    expect(await slot('drain')).toMatchObject({ version: 0, covers: 0 });
    probe.release();
    const status = await exit;
    figures.drainExitAfterReleaseMs = Date.now() - signalled - HOLD_AFTER_SIGTERM_MS;

    expect(status.code === 0 || status.signal === 'SIGTERM').toBe(true);
    expect(await slot('drain')).toEqual({ version: 1, covers: 5, lastError: null });
    expect(await streamEnded).toBe('ended'); // the server closed the stream, the client sees its end
  });

  it('hands a job that outlives the shutdown grace back to the queue; the next process finishes it', async () => {
    const first = await start('handback-1', { QHORUS_SHUTDOWN_TIMEOUT_MS: String(SHORT_GRACE_MS) });
    const agent = await registerAgent(first, 'hander');
    await agent.post('/api/v1/channels', { name: 'handback', description: 'handback', summariser: 'llm', summaryThreshold: 5 });
    probe.hold();
    for (let i = 0; i < 5; i++) expect((await agent.post('/api/v1/channels/handback/messages', { content: `m${i}` })).status).toBe(201);
    await waitFor(async () => probe.inFlight() === 1, 'the summary job to call the model');

    const signalled = Date.now();
    const status = await first.stop('SIGTERM');
    figures.handbackExitMs = Date.now() - signalled;
    expect(status.code === 0 || status.signal === 'SIGTERM').toBe(true);
    expect(await slot('handback')).toEqual({ version: 0, covers: 0, lastError: null }); // untouched
    expect(await messageSeqs('handback')).toEqual([1, 2, 3, 4, 5]);
    probe.release(); // the abandoned call answers into a closed socket

    const restarted = Date.now();
    const second = await start('handback-2');
    await waitForSummary(second.admin, 'handback', (s) => s.coversThroughSeq === 5, 'the handed-back job to finish', HANDBACK_TIMEOUT_MS);
    figures.handbackConvergeAfterRestartMs = Date.now() - restarted;
    expectHistoryCoversExactlyOnce(await summaryHistory(second.admin, 'handback'), 5);
  }, HANDBACK_TIMEOUT_MS + 60_000);

  it('loses no acknowledged post when SIGTERM lands mid-stream, and Idempotency-Key retries after a restart fill the gap exactly once', async () => {
    const first = await start('stream-1');
    const agent = await registerAgent(first, 'streamer');
    await agent.post('/api/v1/channels', { name: 'stream', summaryThreshold: 50 });
    const outcome = new Map<number, number | 'no answer'>();
    const refusals: unknown[] = [];
    let next = 0;
    let signalled: Promise<unknown> | null = null;
    const postOne = async (i: number) => {
      try {
        const res = await agent.request('POST', '/api/v1/channels/stream/messages', { content: `event ${i}` }, { 'idempotency-key': `stream-${i}` });
        outcome.set(i, res.status);
        if (res.status !== 201) refusals.push(res.body);
      } catch {
        outcome.set(i, 'no answer'); // connection refused or reset: the client must retry
      }
      if (outcome.size === SIGTERM_AFTER_ANSWERS && !signalled) signalled = first.stop('SIGTERM');
    };
    await Promise.all(
      Array.from({ length: STREAM_CONCURRENCY }, async () => {
        while (next < STREAM_POSTS) await postOne(next++);
      }),
    );
    const status = await (signalled ?? first.stop('SIGTERM'));
    expect((status as { code: number | null; signal: string | null }).code === 0 || (status as { signal: string | null }).signal === 'SIGTERM').toBe(true);

    // While closing, Fastify answers requests on still-open connections with 503: "not taken, retry".
    const answers = [...outcome.values()];
    expect(answers.filter((a) => a !== 201 && a !== 503 && a !== 'no answer')).toEqual([]);
    for (const body of refusals) expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable', message: expect.any(String) });
    figures.streamRefused503 = refusals.length;
    const acknowledged = [...outcome].filter(([, a]) => a === 201).map(([i]) => `event ${i}`);
    figures.streamAcknowledgedBeforeExit = acknowledged.length;
    figures.streamUnanswered = answers.filter((a) => a === 'no answer').length;
    const { rows } = await pg.query(`SELECT m.content FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = 'stream'`);
    const stored = new Set(rows.map((r) => r.content));
    expect(acknowledged.filter((c) => !stored.has(c))).toEqual([]); // every 201 is durable
    const refused = [...outcome].filter(([, a]) => a === 503).map(([i]) => `event ${i}`);
    expect(refused.filter((c) => stored.has(c))).toEqual([]); // a 503 wrote nothing
    figures.streamStoredButUnanswered = stored.size - acknowledged.length;

    const second = await start('stream-2');
    const again = second.client(agent.token);
    for (const [i, answer] of outcome) {
      if (answer === 201) continue;
      const res = await again.request('POST', '/api/v1/channels/stream/messages', { content: `event ${i}` }, { 'idempotency-key': `stream-${i}` });
      expect([200, 201]).toContain(res.status); // 200 = it had been stored; the retry returns the original
    }
    expect(await messageSeqs('stream')).toEqual(Array.from({ length: STREAM_POSTS }, (_, i) => i + 1));
    const { rows: all } = await pg.query(`SELECT m.content FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = 'stream'`);
    expect(all.map((r) => r.content).sort()).toEqual(Array.from({ length: STREAM_POSTS }, (_, i) => `event ${i}`).sort());
  });
});
