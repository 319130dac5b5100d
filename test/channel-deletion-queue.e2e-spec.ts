import { Queue } from 'bullmq';
import IORedis from 'ioredis';
import { Database } from '../apps/channel-service/src/database/database';
import { SUMMARY_QUEUE_NAME } from '../apps/channel-service/src/summary/queue/bullmq-summary.queue';
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
