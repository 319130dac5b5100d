import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { Message, shownContent, SummaryResult } from '@qhorus/api';
import { Client } from 'pg';
import { Database } from '../apps/channel-service/src/database/database';
import { ApiClient, waitFor } from './support/http';
import { uniqueSecret } from './support/lifecycle-scenario';
import { startTestApp, TestApp } from './support/test-app';

/** Marks a message this summariser refuses, quoting what it read (as a parse error's snippet does). */
const REFUSED = 'QUOTE-ME';

/**
 * A summariser whose failures quote the messages it read, as a custom summariser's error or a
 * JSON parse error's snippet of a model answer would; `hold()` parks every later call until
 * `release()`, so a test can read the tables while the replay after a redaction has not run.
 */
class QuotingSummariser implements ContentSummariser<Message> {
  private gate: Promise<void> | null = null;
  private open: () => void = () => {};

  hold(): void {
    this.gate = new Promise<void>((r) => (this.open = r));
  }

  release(): void {
    this.open();
    this.gate = null;
  }

  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    if (this.gate) await this.gate;
    const lines = items.map((m) => `#${m.seq} ${m.sender}: ${shownContent(m)}`);
    if (items.some((m) => m.content.includes(REFUSED))) throw new Error(`cannot summarise: ${lines.join(' | ')}`);
    return { text: [previous?.text, ...lines].filter(Boolean).join('\n'), annotations: { ...previous?.annotations } };
  }
}

/** The tables holding `needle` anywhere in a row (every table of the schema, each row read as text). */
async function tablesWith(db: Database, needle: string): Promise<string[]> {
  const tables = await db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`);
  const hits: string[] = [];
  for (const { table_name } of tables) {
    const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}" t WHERE t::text LIKE $1`, [`%${needle}%`]);
    if (n > 0) hits.push(table_name);
  }
  return hits;
}

/**
 * Data lifecycle edges (DESIGN §10): a redaction or rebuild whose message or channel goes while it
 * waits for the summary slot's lock answers 404 (not 500) and records nothing; and a failure a
 * summary job recorded while it read the content is no copy a redaction leaves behind.
 */
describe('data lifecycle edges', () => {
  const quoting = new QuotingSummariser();
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let db: Database;
  let blocker: Client;

  beforeAll(async () => {
    // Sweeps 5 s apart: a failed channel summary cools down for 60 s (12 sweeps), so nothing retries on its own.
    t = await startTestApp('lifecycle-edges', { inProcessQueue: true, summarisers: { quoting }, env: { QHORUS_SWEEP_INTERVAL_MS: '5000', QHORUS_JOB_ATTEMPTS: '1' } });
    [alice, bob] = [await t.agent('alice'), await t.agent('bob')];
    db = t.app.get(Database);
    blocker = new Client({ connectionString: t.databaseUrl });
    await blocker.connect();
  });
  afterAll(async () => {
    quoting.release();
    await blocker?.end();
    await t?.close();
  });

  const auditCount = async () => (await t.admin.get('/api/v1/audit?limit=1000')).body.length;
  const channelId = async (name: string) => String((await db.query<{ id: string }>(`SELECT id FROM channels WHERE name = $1`, [name]))[0].id);

  /**
   * Holds the channel's summary slot locked (as a retention step or a deletion does) while `request`
   * starts and waits for it, runs `meanwhile` in that transaction, commits, and returns the answer.
   */
  async function whileTheSlotIsHeld(channel: string, request: () => Promise<{ status: number; body: any }>, meanwhile: (id: string) => Promise<void>) {
    const id = await channelId(channel);
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM channel_summaries WHERE channel_id = $1 FOR UPDATE`, [id]);
    const answer = request();
    // Read outside the blocker's transaction: pg_stat_activity is a snapshot per transaction.
    await waitFor(
      async () => (await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE OF s%'`)).length === 1,
      'the request to wait for the slot lock',
    );
    await meanwhile(id);
    await blocker.query('COMMIT');
    return answer;
  }

  it('a message a retention step removes while the redaction waits for the slot: 404, nothing recorded', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'trimmed', summaryThreshold: 100_000 })).status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await alice.post('/api/v1/channels/trimmed/messages', { type: 'STATUS', content: `m${i}` })).status).toBe(201);
    const audited = await auditCount();
    const res = await whileTheSlotIsHeld(
      'trimmed',
      () => alice.post('/api/v1/channels/trimmed/messages/1/redact', { reason: 'pasted a key' }),
      async (id) => {
        // What a retention step writes (retention.repository.ts): the prefix goes, the kept start moves.
        await blocker.query(`DELETE FROM messages WHERE channel_id = $1 AND seq <= 1`, [id]);
        await blocker.query(`UPDATE channels SET first_seq = 2, content_epoch = content_epoch + 1 WHERE id = $1`, [id]);
      },
    );
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('no message 1');
    expect(await auditCount()).toBe(audited);
    expect((await alice.get('/api/v1/channels/trimmed/messages')).body.map((m: { seq: number; content: string }) => [m.seq, m.content])).toEqual([
      [2, 'm1'],
      [3, 'm2'],
    ]);
  });

  it.each([
    ['redaction', (c: string) => alice.post(`/api/v1/channels/${c}/messages/1/redact`, { reason: 'pasted a key' })],
    ['rebuild', (c: string) => alice.post(`/api/v1/channels/${c}/summary/rebuild`)],
  ])('a %s waiting for the slot while the channel is deleted: 404, nothing recorded', async (_what, request) => {
    const name = `doomed-${_what}`;
    expect((await alice.post('/api/v1/channels', { name, summaryThreshold: 100_000 })).status).toBe(201);
    expect((await alice.post(`/api/v1/channels/${name}/messages`, { type: 'STATUS', content: 'soon gone' })).status).toBe(201);
    const audited = await auditCount();
    const res = await whileTheSlotIsHeld(name, () => request(name), async (id) => {
      await blocker.query(`DELETE FROM channels WHERE id = $1`, [id]);
    });
    expect(res.status).toBe(404);
    expect(await auditCount()).toBe(audited);
    expect((await alice.get(`/api/v1/channels/${name}`)).status).toBe(404);
  });

  it("a job's recorded failure that quotes the content goes with the redaction, and no thread summary copied it", async () => {
    const secret = uniqueSecret();
    // A channel whose summary job fails on the secret, quoting it (lastError).
    expect((await alice.post('/api/v1/channels', { name: 'errs', summariser: 'quoting', summaryThreshold: 1 })).status).toBe(201);
    const leaked = await alice.post('/api/v1/channels/errs/messages', { type: 'STATUS', content: `${REFUSED} ${secret}` });
    expect(leaked.status).toBe(201);
    const failed = await waitFor(async () => {
      const s = (await alice.get('/api/v1/channels/errs/summary')).body;
      return s.lastError ? s : null;
    }, 'the failed summary step');
    expect(failed.lastError).toContain(secret);
    // While the channel cools down, a closing thread is summarised by the default, saying why (tierFallback).
    await alice.post('/api/v1/channels/errs/messages', { type: 'QUERY', content: 'is the deploy done?', correlationId: 'other' });
    await bob.post('/api/v1/channels/errs/messages', { type: 'RESPONSE', content: 'yes', correlationId: 'other' });
    const other = await waitFor(async () => {
      const r = await alice.get('/api/v1/channels/errs/threads/other/summary');
      return r.status === 200 ? r.body : null;
    }, 'the other thread summarised by the default');
    expect(other.annotations.tierFallback).toMatch(/^quoting->default: the channel's summariser is cooling down after a failure: /);

    // A channel with no summary job of its own, whose thread job fails on the secret, quoting it.
    expect((await alice.post('/api/v1/channels', { name: 'thread-errs', summariser: 'quoting', summaryThreshold: 100_000 })).status).toBe(201);
    const q = await alice.post('/api/v1/channels/thread-errs/messages', { type: 'QUERY', content: `${REFUSED} ${secret}?`, correlationId: 'q-err' });
    await bob.post('/api/v1/channels/thread-errs/messages', { type: 'RESPONSE', content: 'no', correlationId: 'q-err' });
    await waitFor(async () => (await db.query(`SELECT 1 FROM threads WHERE correlation_id = 'q-err' AND summary_error LIKE $1`, [`%${secret}%`])).length === 1, 'the failed thread job');
    expect(await tablesWith(db, secret)).toEqual(['channel_summaries', 'messages', 'threads']);

    // The replays the redactions start are held inside the summariser: what is read now is what the redactions left.
    quoting.hold();
    expect((await alice.post(`/api/v1/channels/errs/messages/${leaked.body.seq}/redact`, { reason: 'a key was pasted' })).status).toBe(200);
    expect((await alice.post(`/api/v1/channels/thread-errs/messages/${q.body.seq}/redact`, { reason: 'a key was pasted' })).status).toBe(200);
    const rewound = (await alice.get('/api/v1/channels/errs/summary')).body;
    expect(rewound).toMatchObject({ lastError: null, lastErrorAt: null });
    expect(await tablesWith(db, secret)).toEqual([]);

    quoting.release();
    await waitFor(async () => (await alice.get('/api/v1/channels/errs/summary')).body.coversThroughSeq === 3, 'the replay through the last post');
    await waitFor(async () => {
      const r = await alice.get('/api/v1/channels/thread-errs/threads/q-err/summary');
      return r.status === 200 && r.body.text.includes('[redacted]');
    }, 'the thread summarised from the tombstone');
    expect(await tablesWith(db, secret)).toEqual([]);
  });
});
