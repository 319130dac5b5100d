import { Client } from 'pg';
import { SummaryRepository } from '../../apps/channel-service/src/summary/summary.repository';
import { ApiClient } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 14 item 5: the sweep reads only candidate channels (indexed flags), re-checks them, and
 * takes at most a batch per round. An `api`-role instance runs no jobs, so what is due stays due.
 */
describe('the sweep is bounded: indexed candidates, a limit per round', () => {
  let t: TestApp;
  let pg: Client;
  let alice: ApiClient;
  let summaries: SummaryRepository;

  const flags = async () => {
    const { rows } = await pg.query(`SELECT name, summary_due FROM channels ORDER BY name`);
    return Object.fromEntries(rows.map((r) => [r.name, r.summary_due]));
  };
  const dueNames = async (limit: number) => {
    const ids = await summaries.dueChannelIds(0, limit);
    const { rows } = await pg.query(`SELECT name FROM channels WHERE id = ANY($1::bigint[]) ORDER BY name`, [ids]);
    return rows.map((r) => r.name);
  };
  const post = async (channel: string, n: number) => {
    for (let i = 0; i < n; i++) expect((await alice.post(`/api/v1/channels/${channel}/messages`, { content: `m${i}` })).status).toBe(201);
  };

  beforeAll(async () => {
    t = await startTestApp('sweepbounded', { env: { QHORUS_ROLE: 'api' } });
    pg = new Client({ connectionString: t.databaseUrl });
    await pg.connect();
    alice = await t.agent('alice');
    summaries = t.app.get(SummaryRepository);
  });
  afterAll(async () => {
    await pg?.end();
    await t?.close();
  });

  it('flags a channel when its backlog reaches the threshold, and a threshold change recomputes the flag', async () => {
    for (const name of ['busy-1', 'busy-2', 'busy-3', 'quiet']) await alice.post('/api/v1/channels', { name, summaryThreshold: 3 });
    await post('busy-1', 3);
    await post('busy-2', 4);
    await post('busy-3', 3);
    await post('quiet', 2);
    expect(await flags()).toEqual({ 'busy-1': true, 'busy-2': true, 'busy-3': true, quiet: false });

    expect((await alice.patch('/api/v1/channels/quiet', { summaryThreshold: 2 })).status).toBe(200);
    expect((await alice.patch('/api/v1/channels/busy-3', { summaryThreshold: 10 })).status).toBe(200);
    expect(await flags()).toMatchObject({ quiet: true, 'busy-3': false });
  });

  it('finds due channels through the flags, a refresh request and a time trigger, and never more than the limit', async () => {
    await alice.post('/api/v1/channels', { name: 'asked', summaryThreshold: 100 });
    await post('asked', 1);
    expect((await alice.post('/api/v1/channels/asked/summary/refresh')).status).toBe(202);
    await alice.post('/api/v1/channels', { name: 'timed', summaryThreshold: 100, updateAfterSeconds: 1 });
    await post('timed', 1);
    await pg.query(`UPDATE channels SET created_at = now() - interval '1 hour' WHERE name = 'timed'`); // its time has come
    await alice.post('/api/v1/channels', { name: 'idle', summaryThreshold: 100 });
    await post('idle', 1);

    expect(await dueNames(100)).toEqual(['asked', 'busy-1', 'busy-2', 'quiet', 'timed']);
    expect(await dueNames(2)).toHaveLength(2);
  });

  it('answers from the partial indexes, not a scan of every channel', async () => {
    await pg.query(`SET enable_seqscan = off`); // at this size the planner would scan anyway; this asks what it can use
    const { rows } = await pg.query(`EXPLAIN SELECT id FROM channels WHERE summary_due`);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/channels_summary_due_idx/);
    await pg.query(`RESET enable_seqscan`);
  });
});
