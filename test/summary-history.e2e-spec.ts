import { Database } from '../apps/channel-service/src/database/database';
import { MAX_SUMMARY_VERSION } from '../apps/channel-service/src/summary/dto/history.query';
import { ApiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const KEEP = 5;
const VERSIONS = 12;

/**
 * The history of summary versions is bounded (the newest QHORUS_SUMMARY_HISTORY_KEEP, pruned by
 * the commit itself) and paged newest first with `beforeVersion` and `limit`.
 */
describe('summary history: the newest N versions kept, paged with beforeVersion', () => {
  let t: TestApp;
  let alice: ApiClient;
  const history = (query = '') => alice.get(`/api/v1/channels/kept/summary/history${query}`);
  const versions = async (query = '') => {
    const res = await history(query);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    return (res.body as { version: number }[]).map((h) => h.version);
  };

  beforeAll(async () => {
    t = await startTestApp('summaryhistory', { env: { QHORUS_SUMMARY_HISTORY_KEEP: String(KEEP) } });
    alice = await t.agent('alice');
    expect((await alice.post('/api/v1/channels', { name: 'kept' })).status).toBe(201);
    for (let v = 1; v <= VERSIONS; v++) {
      await alice.post('/api/v1/channels/kept/messages', { type: 'STATUS', content: `step ${v}` });
      expect((await alice.put('/api/v1/channels/kept/summary', { text: `version ${v}` })).status).toBe(200);
    }
  });
  afterAll(() => t?.close());

  it('keeps only the newest N versions, in the table itself (pruned at commit)', async () => {
    expect(await versions()).toEqual([12, 11, 10, 9, 8]);
    const rows = await t.app.get(Database).query<{ version: number }>(`SELECT version FROM channel_summary_history ORDER BY version`);
    expect(rows.map((r: { version: number }) => r.version)).toEqual([8, 9, 10, 11, 12]);
    const newest = (await history('?limit=1')).body[0];
    expect(newest).toMatchObject({ version: 12, text: 'version 12', coversFromSeq: 12, coversThroughSeq: 12 });
  });

  it('pages newest first: each page starts below the smallest version of the previous one', async () => {
    expect(await versions('?limit=2')).toEqual([12, 11]);
    expect(await versions('?limit=2&beforeVersion=11')).toEqual([10, 9]);
    expect(await versions('?limit=2&beforeVersion=9')).toEqual([8]);
    expect(await versions('?limit=2&beforeVersion=8')).toEqual([]);
    expect(await versions('?beforeVersion=1')).toEqual([]);
    expect(await versions(`?beforeVersion=${MAX_SUMMARY_VERSION}`)).toEqual([12, 11, 10, 9, 8]);
  });

  it.each([
    ['beforeVersion', 'abc'],
    ['beforeVersion', '0'],
    ['beforeVersion', '-1'],
    ['beforeVersion', '1.5'],
    ['beforeVersion', String(MAX_SUMMARY_VERSION + 1)],
    ['beforeVersion', ''],
    ['limit', '0'],
    ['limit', 'ten'],
    ['limit', '1001'],
  ])('refuses %s=%p with a 400 naming the field', async (field, value) => {
    const res = await history(`?${field}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual([field]);
  });
});
