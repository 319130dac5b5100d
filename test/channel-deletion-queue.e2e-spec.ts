import { Message, SummaryResult } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Database } from '../apps/channel-service/src/database/database';
import { SUMMARY_QUEUE_NAME } from '../apps/channel-service/src/summary/queue/bullmq-summary.queue';
import { InProcessSummaryQueue } from '../apps/channel-service/src/summary/queue/in-process-summary.queue';
import { SummaryQueue } from '../apps/channel-service/src/summary/queue/summary-queue';
import { ApiClient, waitFor } from './support/http';
import { TEST_REDIS_URL } from './support/test-database';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Deleting a channel removes its queued jobs too (DESIGN §10): on an API-only instance (no worker
 * takes the jobs) the channel's summary job and its closed thread's job wait in BullMQ until the
 * deletion removes them; another channel's job stays.
 */
describe('channel deletion removes its queued summary jobs (BullMQ)', () => {
  let t: TestApp;
  let alice: ApiClient;
  let redis: IORedis;
  let queue: Queue;

  beforeAll(async () => {
    t = await startTestApp('delqueue', { env: { QHORUS_ROLE: 'api' } });
    alice = await t.agent('alice');
    redis = new IORedis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue(SUMMARY_QUEUE_NAME, { connection: redis, prefix: t.queuePrefix });
  });
  afterAll(async () => {
    await queue?.close();
    redis?.disconnect();
    await t?.close();
  });

  const queuedFor = async (channelId: string) =>
    (await queue.getJobs(['waiting', 'delayed', 'prioritized', 'paused'])).filter((j) => j?.data.channelId === channelId).map((j) => j.data);

  it('the deleted channel has no job left in the queue; the other channel keeps its own', async () => {
    for (const name of ['gone-soon', 'stays']) {
      expect((await alice.post('/api/v1/channels', { name, summaryThreshold: 1 })).status).toBe(201);
      await alice.post(`/api/v1/channels/${name}/messages`, { type: 'QUERY', content: 'q', correlationId: `t-${name}` });
      await alice.post(`/api/v1/channels/${name}/messages`, { type: 'DONE', correlationId: `t-${name}` });
    }
    const rows = await t.app.get(Database).query<{ id: string; name: string }>(`SELECT id, name FROM channels`);
    const ids = Object.fromEntries(rows.map((r) => [r.name, r.id]));
    const [goneId, staysId] = [String(ids['gone-soon']), String(ids['stays'])];
    const goneJobs = await waitFor(async () => {
      const jobs = await queuedFor(goneId);
      return jobs.length === 2 ? jobs : null;
    }, 'the slot and thread jobs queued');
    expect(goneJobs).toEqual(expect.arrayContaining([{ channelId: goneId }, { channelId: goneId, correlationId: 't-gone-soon' }]));

    expect((await alice.request('DELETE', '/api/v1/channels/gone-soon')).status).toBe(204);
    expect(await queuedFor(goneId)).toEqual([]);
    expect(await queuedFor(staysId)).toHaveLength(2);
  });
});

/** A summariser that holds every call until `release()`: the one job slot stays taken, the other jobs wait in the queue. */
class HoldingSummariser implements ContentSummariser<Message> {
  private open!: () => void;
  private readonly gate = new Promise<void>((r) => (this.open = r));
  private entered!: () => void;
  readonly holding = new Promise<void>((r) => (this.entered = r));

  release(): void {
    this.open();
  }

  async summarise(items: readonly Message[]): Promise<SummaryResult> {
    this.entered();
    await this.gate;
    return { text: items.map((m) => m.content).join('\n'), annotations: {} };
  }
}

/**
 * The same with the in-process queue (no Redis): with one job at a time and that one held, the
 * deleted channel's summary and thread jobs wait in this process's queue until the deletion
 * removes them; another channel's stay.
 */
describe('channel deletion removes its queued summary jobs (in process)', () => {
  const holding = new HoldingSummariser();
  let t: TestApp;
  let alice: ApiClient;
  let queue: InProcessSummaryQueue;

  beforeAll(async () => {
    t = await startTestApp('delqueue-inproc', { inProcessQueue: true, summarisers: { holding }, env: { QHORUS_WORKER_CONCURRENCY: '1' } });
    alice = await t.agent('alice');
    queue = t.app.get(SummaryQueue) as InProcessSummaryQueue;
    expect(queue).toBeInstanceOf(InProcessSummaryQueue);
  });
  afterAll(async () => {
    holding.release();
    await t?.close();
  });

  it('the deleted channel has no job left in the queue; the other channel keeps its own', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'busy', summariser: 'holding', summaryThreshold: 1 })).status).toBe(201);
    await alice.post('/api/v1/channels/busy/messages', { type: 'STATUS', content: 'held' });
    await holding.holding; // the only job slot is taken from here on
    for (const name of ['gone-soon', 'stays']) {
      expect((await alice.post('/api/v1/channels', { name, summaryThreshold: 1 })).status).toBe(201);
      await alice.post(`/api/v1/channels/${name}/messages`, { type: 'QUERY', content: 'q', correlationId: `t-${name}` });
      await alice.post(`/api/v1/channels/${name}/messages`, { type: 'DONE', correlationId: `t-${name}` });
    }
    const rows = await t.app.get(Database).query<{ id: string; name: string }>(`SELECT id, name FROM channels`);
    const ids = Object.fromEntries(rows.map((r) => [r.name, String(r.id)]));
    const keysOf = (id: string) => queue.queuedKeys.filter((k) => k === id || k.startsWith(`${id}:`)).sort();
    await waitFor(async () => keysOf(ids['gone-soon']).length === 2 && keysOf(ids['stays']).length === 2, 'the slot and thread jobs queued');
    expect(keysOf(ids['gone-soon'])).toEqual([ids['gone-soon'], `${ids['gone-soon']}:t-gone-soon`]);

    expect((await alice.request('DELETE', '/api/v1/channels/gone-soon')).status).toBe(204);
    expect(keysOf(ids['gone-soon'])).toEqual([]);
    expect(keysOf(ids['stays'])).toHaveLength(2);
    // The name is free again, and the new channel's jobs are its own.
    expect((await alice.post('/api/v1/channels', { name: 'gone-soon' })).status).toBe(201);

    holding.release();
    await waitFor(async () => (await alice.get('/api/v1/channels/stays/summary')).body.coversThroughSeq === 2, "the other channel's job ran");
  });
});
