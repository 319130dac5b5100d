import { Client } from 'pg';
import { ApiClient, waitFor } from '../support/http';
import { ensureServiceBuilt, ServiceProcess, startServiceProcess } from '../support/process-harness';
import { createTestDatabase } from '../support/test-database';
import { LlmConcurrencyProbe, startLlmConcurrencyProbe } from './llm-concurrency-probe';

/** Far above any backlog here: the channel summary slot never calls the model. */
const MANUAL_ONLY = 10_000;

/**
 * A thread summary is made from the durable thread index, not from memory: a process killed
 * between a thread's closing post and its summary leaves the thread closed and unsummarised in
 * Postgres, and the next process's sweep makes the summary without another post. The in-process
 * queue (no Redis) is used on purpose: the job dies with the process, so only the sweep can
 * recover it.
 */
describe('thread summaries survive a crash between the closing post and the summary', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let pg: Client;
  let probe: LlmConcurrencyProbe;
  const running: ServiceProcess[] = [];

  async function start(name: string): Promise<ServiceProcess> {
    const service = await startServiceProcess({
      name,
      databaseUrl: db.url,
      queuePrefix: `qtest-thread-crash-${process.pid}`,
      env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: probe.baseURL, QHORUS_LLM_TIMEOUT_MS: '300000', QHORUS_SUMMARY_TIMEOUT_MS: '600000', LOG_LEVEL: 'warn', QHORUS_MODEL_SUMMARISER_POLICY: 'anyone', QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: '1', QHORUS_MODEL_CALLS_PER_HOUR: '1000000' },
    });
    running.push(service);
    return service;
  }

  async function register(service: ServiceProcess, name: string): Promise<string> {
    const res = await service.admin.post('/api/v1/agents', { name });
    expect(res.status).toBe(201);
    return res.body.token;
  }

  beforeAll(async () => {
    await ensureServiceBuilt();
    db = await createTestDatabase('thread-crash');
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    probe = await startLlmConcurrencyProbe(0);
  });
  afterAll(async () => {
    probe?.release();
    await Promise.all(running.map((p) => p.kill()));
    await pg?.end();
    await probe?.close();
    await db?.drop();
  });

  it('SIGKILL while the thread summary waits for the model; after a restart the summary appears without another post', async () => {
    const first = await start('thread-crash-1');
    const [aliceToken, bobToken] = [await register(first, 'alice'), await register(first, 'bob')];
    const alice = first.client(aliceToken);
    const bob = first.client(bobToken);
    expect((await alice.post('/api/v1/channels', { name: 'crash', description: 'crash', summariser: 'llm', summaryThreshold: MANUAL_ONLY })).status).toBe(201);

    probe.hold();
    expect((await alice.post('/api/v1/channels/crash/messages', { type: 'QUERY', content: 'is the backup done?', correlationId: 'backup', target: 'bob' })).status).toBe(201);
    expect(probe.inFlight()).toBe(0); // open: nothing to summarise
    expect((await bob.post('/api/v1/channels/crash/messages', { type: 'RESPONSE', content: 'yes, 2 TB', correlationId: 'backup' })).status).toBe(201);
    await waitFor(async () => probe.inFlight() === 1, 'the thread summary to call the model');

    await first.stop('SIGKILL');
    const { rows: before } = await pg.query(`SELECT status, closed_seq::int, summarised_seq FROM threads WHERE correlation_id = 'backup'`);
    expect(before).toEqual([{ status: 'answered', closed_seq: 2, summarised_seq: null }]);
    expect((await pg.query(`SELECT 1 FROM thread_summaries`)).rowCount).toBe(0);
    probe.release(); // the killed process's call answers into a closed socket

    const second = await start('thread-crash-2');
    const reader = new ApiClient(second.baseUrl, aliceToken);
    const summary = await waitFor(async () => {
      const res = await reader.get('/api/v1/channels/crash/threads/backup/summary');
      return res.status === 200 ? res.body : null;
    }, 'the sweep to make the lost thread summary');
    expect(summary).toMatchObject({ correlationId: 'backup', closedBy: 'RESPONSE', firstSeq: 1, lastSeq: 2, messageCount: 2 });
    expect(summary.text).toContain('Summary of crash');
    expect((await reader.get('/api/v1/channels/crash/threads/backup')).body).toMatchObject({ status: 'answered', summary: { lastSeq: 2 } });
    expect((await pg.query(`SELECT seq FROM messages`)).rowCount).toBe(2); // no other post was needed
  });
});
