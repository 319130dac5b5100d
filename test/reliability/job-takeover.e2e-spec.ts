import { Client } from 'pg';
import { waitForSummary } from '../support/channel-helpers';
import { ApiClient, waitFor } from '../support/http';
import { ensureServiceBuilt, ServiceOptions, ServiceProcess, startServiceProcess } from '../support/process-harness';
import { deleteRedisPrefix } from '../support/test-app';
import { createTestDatabase, TEST_REDIS_URL } from '../support/test-database';
import { LlmConcurrencyProbe, startLlmConcurrencyProbe } from './llm-concurrency-probe';
import { expectHistoryCoversExactlyOnce, summaryHistory } from './summary-history';

/** Messages per summariser call: a 10-message backlog is two steps, so a crash can land between them. */
const CHUNK_SIZE = 5;
const BACKLOG = 2 * CHUNK_SIZE;
const SHORT_GRACE_MS = 1_000;
/** Generous for a loaded 2-core machine; the defaults promise lock (5 s) + two stalled checks (2 s each). */
const TAKEOVER_TIMEOUT_MS = 60_000;

/**
 * Issue 14 item 3: a job whose worker dies (kill -9) or hands it back at shutdown is taken by
 * another worker within seconds, and the summary converges with every range committed once.
 * Processes: one API (posts keep working throughout) and two workers, on one Postgres and Redis.
 */
describe('job takeover: a crashed or handed-back summary job is finished by another worker within seconds', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let probe: LlmConcurrencyProbe;
  let api: ServiceProcess;
  let agent: ApiClient;
  const running: ServiceProcess[] = [];
  const queuePrefix = `qtest-takeover-${process.pid}-${Date.now().toString(36)}`;
  const figures: Record<string, number> = {};

  async function start(name: string, role: 'api' | 'worker', env: Record<string, string> = {}): Promise<ServiceProcess> {
    const options: ServiceOptions = {
      name,
      role,
      databaseUrl: db.url,
      redisUrl: TEST_REDIS_URL,
      queuePrefix,
      env: {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: probe.baseURL,
        QHORUS_LLM_TIMEOUT_MS: '300000',
        QHORUS_SUMMARY_TIMEOUT_MS: '600000',
        QHORUS_SUMMARY_CHUNK_SIZE: String(CHUNK_SIZE),
        // The default sweep (5 s) would also recover the channel; keep it out of the way so the
        // figure measures the queue's own takeover.
        QHORUS_SWEEP_INTERVAL_MS: '600000',
        // The agent picks the llm strategy itself: no cost guard here.
        QHORUS_MODEL_SUMMARISER_POLICY: 'anyone', QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: '1', QHORUS_MODEL_CALLS_PER_HOUR: '1000000',
        ...env,
      },
    };
    const service = await startServiceProcess(options);
    running.push(service);
    return service;
  }

  async function covers(channel: string): Promise<number> {
    const { rows } = await pg.query(`SELECT s.covers_through_seq::int AS covers FROM channel_summaries s JOIN channels c ON c.id = s.channel_id WHERE c.name = $1`, [channel]);
    return rows[0].covers;
  }

  /**
   * Posts the backlog, then asks for a refresh with the model held: one job, whose target is the
   * whole backlog (a refresh keeps the channel due until the watermark reaches it), waits for the test.
   */
  async function backlogInFlight(channel: string): Promise<void> {
    expect((await agent.post('/api/v1/channels', { name: channel, description: channel, summariser: 'llm', summaryThreshold: 1000 })).status).toBe(201);
    for (let i = 0; i < BACKLOG; i++) expect((await agent.post(`/api/v1/channels/${channel}/messages`, { content: `${channel} ${i}` })).status).toBe(201);
    probe.hold();
    expect((await agent.post(`/api/v1/channels/${channel}/summary/refresh`)).status).toBe(202);
    await waitFor(async () => probe.inFlight() === 1, 'the job to call the model');
  }

  /** Lets the first step commit and holds the second: the job is then mid-way, one range committed. */
  async function firstStepCommitted(channel: string): Promise<void> {
    probe.release();
    probe.hold();
    await waitFor(async () => (await covers(channel)) === CHUNK_SIZE && probe.inFlight() === 1, 'the first step to commit and the second to start');
  }

  beforeAll(async () => {
    await ensureServiceBuilt();
    db = await createTestDatabase('takeover');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    probe = await startLlmConcurrencyProbe(0);
    api = await start('api', 'api');
    const res = await api.admin.post('/api/v1/agents', { name: 'poster' });
    agent = api.client(res.body.token);
  });
  afterAll(async () => {
    probe?.release();
    await Promise.all(running.map((p) => p.kill()));
    await pg?.end();
    await probe?.close();
    await db?.drop();
    await deleteRedisPrefix(queuePrefix);
    console.log(`job-takeover figures: ${JSON.stringify(figures)}`);
  });

  it('kill -9 of the worker mid-job: another worker takes the job over and the history covers every message once', async () => {
    const doomed = await start('worker-1', 'worker');
    await backlogInFlight('crash');
    const survivor = await start('worker-2', 'worker'); // started now, so the job is surely on worker-1
    await firstStepCommitted('crash');

    const killedAt = Date.now();
    expect(await doomed.stop('SIGKILL')).toMatchObject({ signal: 'SIGKILL' });
    probe.release(); // the abandoned call answers into a dead socket; the next ones answer at once
    expect((await agent.post('/api/v1/channels/crash/messages', { content: 'posted while the job is orphaned' })).status).toBe(201);
    await waitForSummary(agent, 'crash', (s) => s.coversThroughSeq >= BACKLOG, 'the orphaned job to be finished by worker-2', TAKEOVER_TIMEOUT_MS);
    figures.crashTakeoverMs = Date.now() - killedAt;

    await agent.post('/api/v1/channels/crash/summary/refresh');
    await waitForSummary(agent, 'crash', (s) => s.coversThroughSeq === BACKLOG + 1 && s.lastError === null, 'the last post to be summarised');
    const history = await summaryHistory(agent, 'crash');
    expectHistoryCoversExactlyOnce(history, BACKLOG + 1);
    expect(history[0]).toMatchObject({ coversFromSeq: 1, coversThroughSeq: CHUNK_SIZE }); // worker-1's step stands
    expect(probe.maxConcurrent.get('crash')).toBe(1); // never two model calls for the channel at once
    expect(survivor.hasExited).toBe(false);
  }, TAKEOVER_TIMEOUT_MS + 60_000);

  it('SIGTERM past the grace: the job is handed back and a running worker takes it at once, not after the lock expires', async () => {
    const leaving = await start('worker-3', 'worker', { QHORUS_SHUTDOWN_TIMEOUT_MS: String(SHORT_GRACE_MS), QHORUS_JOB_LOCK_MS: '60000' });
    // Stop the other workers from taking the job first: only worker-3 runs while the backlog is posted.
    await Promise.all(running.filter((p) => p.name !== 'api' && p !== leaving && !p.hasExited).map((p) => p.stop('SIGTERM')));
    await backlogInFlight('handback');
    await start('worker-4', 'worker', { QHORUS_JOB_LOCK_MS: '60000' });
    await firstStepCommitted('handback');

    // A 60 s lock: without the explicit hand-back the job would wait a minute for a stalled check.
    const exit = leaving.stop('SIGTERM');
    const status = await exit;
    const exitedAt = Date.now();
    expect(status.code === 0 || status.signal === 'SIGTERM').toBe(true);
    probe.release();
    await waitForSummary(agent, 'handback', (s) => s.coversThroughSeq === BACKLOG, 'the handed-back job to be finished by worker-4', TAKEOVER_TIMEOUT_MS);
    figures.handbackTakeoverAfterExitMs = Date.now() - exitedAt;
    expect(figures.handbackTakeoverAfterExitMs).toBeLessThan(60_000); // the lock had not expired: the hand-back did it
    expectHistoryCoversExactlyOnce(await summaryHistory(agent, 'handback'), BACKLOG);
    expect(probe.maxConcurrent.get('handback')).toBe(1);
  }, TAKEOVER_TIMEOUT_MS + 60_000);
});
