import fc from 'fast-check';
import { Database } from '../apps/channel-service/src/database/database';
import { RetentionSweepService } from '../apps/channel-service/src/retention/retention-sweep.service';
import { ApiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/** Far above any test's length: the tests run the pass themselves, the timer never does. */
const NO_TIMER_MS = '3600000';
/** No summary job of its own: versions come from overrides (PUT …/summary), at known watermarks. */
const NO_JOB_THRESHOLD = 100_000;
const HISTORY_KEEP = 2;

/**
 * Retention (DESIGN §10): a pass removes the oldest messages past a channel's bounds, only up to
 * a kept summary version's watermark, pins it as the base, and reads carry firstSeq.
 */
describe('retention', () => {
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let db: Database;
  let retention: RetentionSweepService;

  beforeAll(async () => {
    t = await startTestApp('retention', { inProcessQueue: true, env: { QHORUS_RETENTION_SWEEP_MS: NO_TIMER_MS, QHORUS_RETENTION_BATCH_MESSAGES: '1000', QHORUS_SUMMARY_HISTORY_KEEP: String(HISTORY_KEEP) } });
    alice = await t.agent('alice');
    bob = await t.agent('bob');
    db = t.app.get(Database);
    retention = t.app.get(RetentionSweepService);
  });
  afterAll(() => t?.close());

  const create = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await alice.post('/api/v1/channels', { name, summaryThreshold: NO_JOB_THRESHOLD, ...body });
    expect(res.status).toBe(201);
    return res.body;
  };
  const post = async (channel: string, count: number, extra: (i: number) => Record<string, unknown> = () => ({})) => {
    const messages = Array.from({ length: count }, (_, i) => ({ type: 'STATUS', content: `m${i}`, ...extra(i) }));
    const res = await alice.post(`/api/v1/channels/${channel}/messages/batch`, { messages });
    expect(res.status).toBe(201);
  };
  /** A summary version at the channel's lastSeq. */
  const summarise = async (channel: string, text = 'summary') => expect((await alice.put(`/api/v1/channels/${channel}/summary`, { text })).status).toBe(200);
  const keptSeqs = async (channel: string) =>
    (await db.query<{ seq: string }>(`SELECT m.seq FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = $1 ORDER BY m.seq`, [channel])).map((r) => Number(r.seq));
  const base = async (channel: string) =>
    (
      await db.query<{ base_version: number | null; watermark: string | null }>(
        `SELECT s.base_version, h.covers_through_seq AS watermark FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
         LEFT JOIN channel_summary_history h ON h.channel_id = c.id AND h.version = s.base_version WHERE c.name = $1`,
        [channel],
      )
    )[0];

  it('removes past maxMessages only up to a summary version, pins it as the base, and every read carries firstSeq', async () => {
    const created = await create('capped', { retention: { maxMessages: 5 } });
    expect(created).toMatchObject({ retention: { maxAgeDays: null, maxMessages: 5 }, firstSeq: 1, archived: false });
    await post('capped', 10);
    await summarise('capped'); // v1 through 10
    await post('capped', 10);
    await summarise('capped'); // v2 through 20
    await post('capped', 10); // 21..30 not summarised
    await retention.pass();
    // Count bound: through 25; the newest version at or below it is v2 (through 20).
    expect(await keptSeqs('capped')).toEqual(Array.from({ length: 10 }, (_, i) => 21 + i));
    expect(await base('capped')).toEqual({ base_version: 2, watermark: '20' });
    expect((await alice.get('/api/v1/channels/capped')).body).toMatchObject({ firstSeq: 21, lastSeq: 30 });
    expect((await alice.get('/api/v1/channels/capped/summary')).body).toMatchObject({ firstSeq: 21, coversThroughSeq: 20 });
    const page = await alice.get('/api/v1/channels/capped/messages?afterSeq=3&limit=3');
    expect(page.headers.get('x-first-seq')).toBe('21');
    expect(page.body.map((m: { seq: number }) => m.seq)).toEqual([21, 22, 23]);
    // Nothing uncovered goes, however far past the bound: a second pass removes nothing more.
    await retention.pass();
    expect((await keptSeqs('capped'))[0]).toBe(21);
    const audit = (await t.admin.get('/api/v1/audit?limit=1000')).body.filter((a: { channel: string }) => a.channel === 'capped');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'retention', action: 'channel.retention', seq: 20 });
    expect(audit[0].reason).toContain('removed seq 1-20');
  });

  it('a base version survives history pruning, and the next pass moves on from it', async () => {
    await create('pinned', { retention: { maxMessages: 2 } });
    await post('pinned', 4);
    await summarise('pinned'); // v1 through 4
    await post('pinned', 2);
    await retention.pass();
    expect(await base('pinned')).toEqual({ base_version: 1, watermark: '4' });
    for (let i = 0; i < 3; i++) {
      await post('pinned', 1);
      await summarise('pinned'); // v2..v4 through 7..9; the history keeps the newest HISTORY_KEEP and the base
    }
    const history = await db.query<{ version: number }>(
      `SELECT h.version FROM channel_summary_history h JOIN channels c ON c.id = h.channel_id WHERE c.name = 'pinned' ORDER BY h.version`,
    );
    expect(history.map((h) => h.version)).toEqual([1, 3, 4]);
    await retention.pass(); // through lastSeq − 2 = 7 at most: v2 (through 7) was pruned, v3 is past it
    expect(await base('pinned')).toEqual({ base_version: 1, watermark: '4' });
    await post('pinned', 1);
    await retention.pass(); // through 8: v3
    expect(await base('pinned')).toEqual({ base_version: 3, watermark: '8' });
    expect(await keptSeqs('pinned')).toEqual([9, 10]);
  });

  it('a redaction after retention rewinds to the base at worst, never below it, and keeps the base', async () => {
    await create('rewound', { retention: { maxMessages: 3 } });
    await post('rewound', 10);
    await summarise('rewound'); // v1 through 10
    await post('rewound', 5);
    await summarise('rewound'); // v2 through 15
    await retention.pass(); // through 12 at most: v1 (through 10)
    expect(await base('rewound')).toEqual({ base_version: 1, watermark: '10' });
    expect((await alice.post('/api/v1/channels/rewound/messages/11/redact', { reason: 'pasted a key' })).status).toBe(200);
    // v2 covered 11 and is gone; the slot went back to the base's watermark, and the base is kept.
    const versions = await db.query<{ version: number }>(
      `SELECT h.version FROM channel_summary_history h JOIN channels c ON c.id = h.channel_id WHERE c.name = 'rewound' AND h.covers_through_seq >= 11`,
    );
    expect(versions.filter((v) => v.version === 2)).toEqual([]);
    expect(await base('rewound')).toEqual({ base_version: 1, watermark: '10' });
    const summary = (await alice.get('/api/v1/channels/rewound/summary')).body;
    expect(summary.coversThroughSeq).toBeGreaterThanOrEqual(10);
    expect(summary.firstSeq).toBe(11);
    expect((await alice.post('/api/v1/channels/rewound/messages/10/redact', { reason: 'gone' })).status).toBe(404);
  });

  it('removes messages past maxAgeDays once summarised, and says when to look again', async () => {
    await create('aged', { retention: { maxAgeDays: 1 } });
    await post('aged', 6);
    await summarise('aged'); // v1 through 6
    await post('aged', 2);
    await db.query(`UPDATE messages m SET created_at = now() - interval '2 days' FROM channels c WHERE c.id = m.channel_id AND c.name = 'aged'`);
    await retention.pass();
    expect(await keptSeqs('aged')).toEqual([7, 8]); // old, but not covered
    const [due] = await db.query<{ due: Date | null }>(`SELECT retention_due_at AS due FROM channels WHERE name = 'aged'`);
    expect(due.due).toBeNull(); // nothing covered left: a summary commit re-arms it
    await summarise('aged');
    await retention.pass();
    expect(await keptSeqs('aged')).toEqual([]);
    expect((await alice.get('/api/v1/channels/aged')).body).toMatchObject({ firstSeq: 9, lastSeq: 8 });
    expect((await alice.get('/api/v1/channels/aged/messages')).body).toEqual([]);
  });

  it('closed threads whose messages are all gone leave the thread index; open ones stay', async () => {
    await create('threaded', { retention: { maxMessages: 1 } });
    const q = async (cid: string) => expect((await alice.post('/api/v1/channels/threaded/messages', { type: 'QUERY', content: 'q', correlationId: cid })).status).toBe(201);
    await q('closed-one');
    expect((await bob.post('/api/v1/channels/threaded/messages', { type: 'RESPONSE', content: 'a', correlationId: 'closed-one' })).status).toBe(201);
    await q('open-one');
    await post('threaded', 2);
    await summarise('threaded'); // through 5
    await post('threaded', 1); // the count bound reaches 5
    await retention.pass();
    expect((await alice.get('/api/v1/channels/threaded')).body.firstSeq).toBe(6);
    const threads = (await alice.get('/api/v1/channels/threaded/threads')).body;
    const ids = (Array.isArray(threads) ? threads : threads.threads).map((th: { correlationId: string }) => th.correlationId);
    expect(ids).toEqual(['open-one']);
    expect((await alice.get('/api/v1/channels/threaded/threads/closed-one')).status).toBe(404);
  });

  it('retention is set on create and PATCH (null: kept for ever), by the creator or the admin only', async () => {
    await create('settable');
    const patched = await alice.patch('/api/v1/channels/settable', { retention: { maxAgeDays: 30 } });
    expect(patched.status).toBe(200);
    expect(patched.body.retention).toEqual({ maxAgeDays: 30, maxMessages: null });
    expect((await alice.patch('/api/v1/channels/settable', { retention: { maxMessages: 100 } })).body.retention).toEqual({ maxAgeDays: 30, maxMessages: 100 });
    expect((await alice.patch('/api/v1/channels/settable', { retention: null })).body.retention).toEqual({ maxAgeDays: null, maxMessages: null });
    const refused = await bob.patch('/api/v1/channels/settable', { retention: { maxMessages: 1 } });
    expect(refused.status).toBe(403);
    expect((await alice.get('/api/v1/channels/settable')).body.retention).toEqual({ maxAgeDays: null, maxMessages: null });
  });

  it.each([
    [{ maxAgeDays: 0 }, 'retention.maxAgeDays'],
    [{ maxAgeDays: 36_501 }, 'retention.maxAgeDays'],
    [{ maxAgeDays: 1.5 }, 'retention.maxAgeDays'],
    [{ maxMessages: 0 }, 'retention.maxMessages'],
    [{ maxMessages: -3 }, 'retention.maxMessages'],
    [{ maxMessages: 'ten' }, 'retention.maxMessages'],
    [{ maxMessages: 1_000_000_001 }, 'retention.maxMessages'],
    [{ keep: 3 }, 'retention.keep'],
    ['forever', 'retention'],
    [[1], 'retention'],
  ])('retention %j is a 400 naming %s, on create and on PATCH, and writes nothing', async (retentionValue, field) => {
    const created = await alice.post('/api/v1/channels', { name: 'refused-retention', retention: retentionValue });
    expect(created.status).toBe(400);
    expect(created.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await alice.get('/api/v1/channels/refused-retention')).status).toBe(404);
    await create('patched-retention-' + Math.abs(hash(JSON.stringify(retentionValue))));
    const patched = await alice.patch(`/api/v1/channels/patched-retention-${Math.abs(hash(JSON.stringify(retentionValue)))}`, { retention: retentionValue });
    expect(patched.status).toBe(400);
    expect(patched.body.message).toContain(field.split('.').pop());
  });
});

/**
 * The property over random thresholds, posts, summary versions, passes and redactions (issue 29):
 * retention never removes an uncovered message, and a redaction after it always finds its base.
 * Versions are written by hand, each quoting every kept message it covers (as a verbatim or LLM
 * summary would), so a kept version written from a redacted message would show. Twice: with the
 * replay jobs a redaction starts running (in process), and with no worker (QHORUS_ROLE=api, BullMQ),
 * where what a redaction leaves is what the next step reads, nothing replayed or pruned over it.
 */
describe.each([
  ['replay jobs running (in process)', false],
  ['no worker: the rewound slot stays as the redaction left it', true],
])('retention and redaction, random scenarios (%s)', (_label, frozen) => {
  let t: TestApp;
  let alice: ApiClient;
  let db: Database;
  let retention: RetentionSweepService;

  beforeAll(async () => {
    const env = { QHORUS_RETENTION_SWEEP_MS: NO_TIMER_MS, QHORUS_SUMMARY_HISTORY_KEEP: frozen ? '50' : String(HISTORY_KEEP), ...(frozen ? { QHORUS_ROLE: 'api' } : {}) };
    t = await startTestApp(frozen ? 'retention-random-api' : 'retention-random', { inProcessQueue: !frozen, env });
    alice = await t.agent('alice');
    db = t.app.get(Database);
    retention = t.app.get(RetentionSweepService);
  });
  afterAll(() => t?.close());

  const keptSeqs = async (channel: string) =>
    (await db.query<{ seq: string }>(`SELECT m.seq FROM messages m JOIN channels c ON c.id = m.channel_id WHERE c.name = $1 ORDER BY m.seq`, [channel])).map((r) => Number(r.seq));
  const baseWatermark = async (channel: string) =>
    (
      await db.query<{ watermark: string | null }>(
        `SELECT h.covers_through_seq AS watermark FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
         LEFT JOIN channel_summary_history h ON h.channel_id = c.id AND h.version = s.base_version WHERE c.name = $1`,
        [channel],
      )
    )[0].watermark;
  const summaryTexts = async (channel: string) =>
    (
      await db.query<{ text: string }>(
        `SELECT s.text FROM channel_summaries s JOIN channels c ON c.id = s.channel_id WHERE c.name = $1
         UNION ALL SELECT h.text FROM channel_summary_history h JOIN channels c ON c.id = h.channel_id WHERE c.name = $1`,
        [channel],
      )
    ).map((r) => r.text);

  it('kept is always firstSeq..lastSeq, firstSeq − 1 the base watermark, never past the summary; a redaction finds its base and leaves no version written from the content', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ maxMessages: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }), aged: fc.boolean() }),
        fc.array(
          fc.oneof(fc.constant('summarise' as const), fc.constant('pass' as const), fc.integer({ min: 1, max: 6 }), fc.record({ redact: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant('watermark' as const)) })),
          { minLength: 3, maxLength: 14 },
        ),
        async (bounds, ops) => {
          const name = `random-${++run}`;
          const contentOf = (seq: number) => `<${name}:${seq}>`;
          const redacted = new Set<number>();
          const created = await alice.post('/api/v1/channels', { name, summaryThreshold: NO_JOB_THRESHOLD, retention: { maxMessages: bounds.maxMessages ?? (bounds.aged ? null : 1), maxAgeDays: bounds.aged ? 1 : null } });
          expect(created.status).toBe(201);
          for (const op of ops) {
            const before = (await alice.get(`/api/v1/channels/${name}`)).body;
            if (op === 'summarise') {
              if (before.lastSeq === 0) continue;
              // A version written from the content: it quotes every kept message it covers.
              const kept = (await alice.get(`/api/v1/channels/${name}/messages?limit=1000`)).body as { content: string | null }[];
              const text = [`through ${before.lastSeq}:`, ...kept.map((m) => m.content ?? '[redacted]')].join(' ');
              // A replay job may commit meanwhile (409: read again and retry).
              let res = await alice.put(`/api/v1/channels/${name}/summary`, { text });
              for (let retry = 0; res.status === 409 && retry < 20; retry++) res = await alice.put(`/api/v1/channels/${name}/summary`, { text });
              expect(res.status).toBe(200);
            } else if (op === 'pass') {
              if (bounds.aged) await db.query(`UPDATE messages m SET created_at = now() - interval '2 days' FROM channels c WHERE c.id = m.channel_id AND c.name = $1`, [name]);
              await retention.pass();
            } else if (typeof op === 'number') {
              const seqs = Array.from({ length: op }, (_, i) => before.lastSeq + 1 + i);
              const res = await alice.post(`/api/v1/channels/${name}/messages/batch`, { messages: seqs.map((seq) => ({ type: 'STATUS', content: contentOf(seq) })) });
              expect(res.status).toBe(201);
            } else if (before.lastSeq >= before.firstSeq) {
              // A random kept message, or the one at the summary's watermark (the edge of the versions to drop).
              const watermark = (await alice.get(`/api/v1/channels/${name}/summary`)).body.coversThroughSeq;
              const seq = op.redact === 'watermark' ? Math.max(before.firstSeq, watermark) : before.firstSeq + Math.floor(op.redact * (before.lastSeq - before.firstSeq));
              expect((await alice.post(`/api/v1/channels/${name}/messages/${seq}/redact`, { reason: 'random' })).status).toBe(200);
              const alreadyRedacted = redacted.has(seq);
              redacted.add(seq);
              // The slot went back to before the seq, and no further than the base: every kept message after it can be replayed.
              const rewound = (await alice.get(`/api/v1/channels/${name}/summary`)).body;
              expect(rewound.coversThroughSeq).toBeGreaterThanOrEqual(before.firstSeq - 1);
              if (frozen && !alreadyRedacted) expect(rewound.coversThroughSeq).toBeLessThan(seq);
            }
            const channel = (await alice.get(`/api/v1/channels/${name}`)).body;
            const summary = (await alice.get(`/api/v1/channels/${name}/summary`)).body;
            expect(await keptSeqs(name)).toEqual(Array.from({ length: channel.lastSeq - channel.firstSeq + 1 }, (_, i) => channel.firstSeq + i));
            expect(channel.firstSeq - 1).toBeLessThanOrEqual(summary.coversThroughSeq);
            if (channel.firstSeq > 1) expect(Number(await baseWatermark(name))).toBe(channel.firstSeq - 1);
            // No kept version (slot or history, the base included) was written from a redacted message.
            const texts = await summaryTexts(name);
            for (const seq of redacted) expect({ seq, quoted: texts.some((text) => text.includes(contentOf(seq))) }).toEqual({ seq, quoted: false });
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) | 0;
  return h;
}
