import { Database } from '../apps/channel-service/src/database/database';
import { ApiClient, waitFor } from './support/http';
import { waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { connectMcp, useTool } from './support/mcp-client';
import { startTestApp, TestApp } from './support/test-app';

const post = (c: ApiClient, channel: string, body: Record<string, unknown>) => c.post(`/api/v1/channels/${channel}/messages`, body);
const redact = (c: ApiClient, channel: string, seq: number | string, body: unknown = { reason: 'pasted a key' }) =>
  c.post(`/api/v1/channels/${channel}/messages/${seq}/redact`, body);
const del = (c: ApiClient, path: string) => c.request('DELETE', path);

/**
 * Redaction, rebuild, deletion and erasure (DESIGN §10) as a user of the REST API sees them:
 * tombstones, the rewind and replay of the summary, who may do what, and the bad input of each.
 */
describe('data lifecycle: redaction, rebuild, deletion, erasure', () => {
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let carol: ApiClient;
  let db: Database;

  beforeAll(async () => {
    t = await startTestApp('redaction');
    [alice, bob, carol] = [await t.agent('alice'), await t.agent('bob'), await t.agent('carol')];
    db = t.app.get(Database);
  });
  afterAll(() => t?.close());

  it('a tombstone keeps seq, sender, type, time and correlation id; content, topic and metadata are null; redacted says who, when, why', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'tomb' })).status).toBe(201);
    const q = await post(bob, 'tomb', { type: 'QUERY', content: 'what is the key?', topic: 'keys', metadata: { k: 'v' }, correlationId: 'c-1' });
    const res = await redact(bob, 'tomb', q.body.seq);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...q.body,
      content: null,
      topic: null,
      metadata: null,
      redacted: { at: expect.any(String), by: 'bob', reason: 'pasted a key' },
    });
    const again = await redact(alice, 'tomb', q.body.seq, { reason: 'another reason' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const [read] = (await alice.get('/api/v1/channels/tomb/messages')).body;
    expect(read).toEqual(res.body);
    const plain = await post(bob, 'tomb', { type: 'STATUS', content: 'fine' });
    expect(plain.body).not.toHaveProperty('redacted');
    const audit = (await t.admin.get('/api/v1/audit')).body.filter((e: { action: string }) => e.action === 'message.redact');
    expect(audit).toEqual([{ id: expect.any(Number), at: expect.any(String), actor: 'bob', action: 'message.redact', channel: 'tomb', seq: q.body.seq, reason: 'pasted a key' }]);
  });

  it('rewinds the summary to the newest version before the seq and replays forward: no kept version has the content', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'rewind', summariser: 'verbatim', summaryThreshold: 1 })).status).toBe(201);
    for (let i = 1; i <= 4; i++) await post(alice, 'rewind', { type: 'STATUS', content: `step ${i}` });
    await waitForSummary(alice, 'rewind', (s) => s.coversThroughSeq === 4, 'summary through 4');
    await post(bob, 'rewind', { type: 'STATUS', content: 'the secret s3cr3t-rw' });
    await post(alice, 'rewind', { type: 'STATUS', content: 'step 6' });
    await waitForSummary(alice, 'rewind', (s) => s.coversThroughSeq === 6, 'summary through 6');
    for (let i = 7; i <= 8; i++) await post(alice, 'rewind', { type: 'STATUS', content: `step ${i}` });
    const before = await waitForSummary(alice, 'rewind', (s) => s.coversThroughSeq === 8, 'summary through 8');
    expect(before.text).toContain('s3cr3t-rw');
    const beforeHistory = (await alice.get('/api/v1/channels/rewind/summary/history')).body;
    expect(beforeHistory.some((h: { text: string }) => h.text.includes('s3cr3t-rw'))).toBe(true);

    expect((await redact(bob, 'rewind', 5)).status).toBe(200);
    // At the answer, the slot is back at the version through seq 4 (before the redacted seq 5), under a new version number.
    const rewound = (await alice.get('/api/v1/channels/rewind/summary')).body;
    expect(rewound.text).not.toContain('s3cr3t-rw');
    expect(rewound.version).toBeGreaterThan(before.version);
    const history = (await alice.get('/api/v1/channels/rewind/summary/history')).body;
    // Versions through seq 5 or later are only those the replay wrote since (newer than any before the redaction).
    const stale = history.filter((h: { text: string; coversThroughSeq: number; version: number }) => h.text.includes('s3cr3t-rw') || (h.coversThroughSeq >= 5 && h.version <= before.version));
    expect(stale).toEqual([]);
    // Then a job replays forward over the tombstone.
    const replayed = await waitForSummary(alice, 'rewind', (s) => s.coversThroughSeq === 8, 'replayed through 8');
    expect(replayed.text).toContain('#5 STATUS bob: [redacted]');
    expect(replayed.text).toContain('step 8');
    expect(replayed.text).not.toContain('s3cr3t-rw');
  });

  it('drops the thread summary of the redacted message and summarises the thread again from the tombstone', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'thready', summariser: 'verbatim' })).status).toBe(201);
    const q = await post(alice, 'thready', { type: 'QUERY', content: 'is th-s3cr3t valid?', correlationId: 'th-1' });
    await post(bob, 'thready', { type: 'RESPONSE', content: 'yes', correlationId: 'th-1' });
    const path = '/api/v1/channels/thready/threads/th-1/summary';
    const first = await waitFor(async () => ((await alice.get(path)).status === 200 ? (await alice.get(path)).body : null), 'thread summary');
    expect(first.text).toContain('th-s3cr3t');
    expect((await redact(alice, 'thready', q.body.seq)).status).toBe(200);
    const again = await waitFor(async () => {
      const r = await alice.get(path);
      return r.status === 200 && r.body.text.includes('[redacted]') ? r.body : null;
    }, 'the thread summarised again');
    expect(again.text).not.toContain('th-s3cr3t');
    const rows = await db.query<{ text: string }>(`SELECT text FROM thread_summaries`);
    expect(rows.some((r) => r.text.includes('th-s3cr3t'))).toBe(false);
  });

  it('an idempotent retry of a redacted post gets the tombstone back (the request hash went with the content)', async () => {
    const body = { type: 'STATUS', content: 'idem-s3cr3t' };
    const first = await alice.post('/api/v1/channels/tomb/messages', body, { 'idempotency-key': 'k-1' });
    expect(first.status).toBe(201);
    await redact(alice, 'tomb', first.body.seq);
    const hash = await db.query<{ request_hash: string | null }>(`SELECT request_hash FROM messages WHERE idempotency_key = 'k-1'`);
    expect(hash).toEqual([{ request_hash: null }]);
    const retry = await alice.post('/api/v1/channels/tomb/messages', body, { 'idempotency-key': 'k-1' });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ seq: first.body.seq, content: null, redacted: { by: 'alice' } });
  });

  it('who may redact: the sender, the creator, the admin; others 403; a private channel they cannot see 404', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'perm' })).status).toBe(201);
    const seqs: number[] = [];
    for (let i = 0; i < 4; i++) seqs.push((await post(bob, 'perm', { type: 'STATUS', content: `p${i}` })).body.seq);
    expect((await redact(carol, 'perm', seqs[0])).status).toBe(403);
    expect((await redact(bob, 'perm', seqs[0])).status).toBe(200); // sender
    expect((await redact(alice, 'perm', seqs[1])).status).toBe(200); // creator
    expect((await redact(t.admin, 'perm', seqs[2])).status).toBe(200); // admin
    expect((await alice.post('/api/v1/channels', { name: 'secret-room', members: ['alice'] })).status).toBe(201);
    const s = await post(alice, 'secret-room', { type: 'STATUS', content: 'hidden' });
    const outsider = await redact(carol, 'secret-room', s.body.seq);
    expect(outsider.status).toBe(404);
    expect((await alice.get('/api/v1/channels/secret-room/messages')).body[0].content).toBe('hidden');
  });

  it.each([
    ['missing reason', 4, {}, 400, 'reason'],
    ['blank reason', 4, { reason: '   ' }, 400, 'reason'],
    ['reason not a string', 4, { reason: 7 }, 400, 'reason'],
    ['unknown field', 4, { reason: 'x', extra: 1 }, 400, 'extra'],
    ['seq not a number', 'abc', { reason: 'x' }, 400, 'seq'],
    ['seq zero', 0, { reason: 'x' }, 400, 'seq'],
    ['seq negative', -3, { reason: 'x' }, 400, 'seq'],
    ['reason too long', 4, { reason: 'x'.repeat(1001) }, 400, 'reason'],
  ])('bad input (%s) is a 400 naming the field and writes nothing', async (_what, seq, body, status, field) => {
    const audited = (await t.admin.get('/api/v1/audit?limit=1000')).body.length;
    const res = await redact(alice, 'perm', seq, body);
    expect(res.status).toBe(status);
    expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await t.admin.get('/api/v1/audit?limit=1000')).body).toHaveLength(audited);
    expect((await alice.get('/api/v1/channels/perm/messages')).body[3]).toMatchObject({ content: 'p3' });
  });

  it('an unknown seq or channel is a 404', async () => {
    expect((await redact(alice, 'perm', 999)).status).toBe(404);
    expect((await redact(alice, 'no-such-channel', 1)).status).toBe(404);
  });

  it('rebuild (creator or admin) drops every version, the base included, says what goes with it, and summarises from empty', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'rebuilt', summariser: 'verbatim', summaryThreshold: 1 })).status).toBe(201);
    for (let i = 1; i <= 4; i++) await post(alice, 'rebuilt', { type: 'STATUS', content: `r${i}` });
    const before = await waitForSummary(alice, 'rebuilt', (s) => s.coversThroughSeq === 4, 'summary through 4');
    await db.query(`UPDATE channel_summaries s SET base_version = h.version FROM channel_summary_history h, channels c
      WHERE c.name = 'rebuilt' AND s.channel_id = c.id AND h.channel_id = c.id AND h.covers_through_seq = 2`);
    expect((await bob.post('/api/v1/channels/rebuilt/summary/rebuild')).status).toBe(403);
    const res = await alice.post('/api/v1/channels/rebuilt/summary/rebuild');
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ channel: 'rebuilt', version: before.version + 1, note: expect.stringMatching(/removed/) });
    expect(typeof res.body.queued).toBe('boolean');
    const base = await db.query<{ base_version: number | null }>(`SELECT s.base_version FROM channel_summaries s JOIN channels c ON c.id = s.channel_id WHERE c.name = 'rebuilt'`);
    expect(base).toEqual([{ base_version: null }]);
    const after = await waitForSummary(alice, 'rebuilt', (s) => s.coversThroughSeq === 4 && s.version > res.body.version, 'rebuilt through 4');
    expect(after.text).toContain('r1');
    const history = (await alice.get('/api/v1/channels/rebuilt/summary/history')).body;
    expect(history.every((h: { version: number }) => h.version > before.version)).toBe(true);
    expect((await alice.post('/api/v1/channels/rebuilt/summary/rebuild?x=1')).status).toBe(400);
    expect((await t.admin.get('/api/v1/audit')).body.some((e: { action: string; channel: string }) => e.action === 'summary.rebuild' && e.channel === 'rebuilt')).toBe(true);
  });

  it('deletion (creator or admin) → 204: the channel and every derived row gone, the name free again, audited', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'doomed', summariser: 'verbatim', summaryThreshold: 1 })).status).toBe(201);
    await post(alice, 'doomed', { type: 'QUERY', content: 'doomed-s3cr3t', correlationId: 'd-1' });
    await post(bob, 'doomed', { type: 'DONE', correlationId: 'd-1' });
    await waitForQuietSummary(alice, 'doomed');
    expect((await del(bob, '/api/v1/channels/doomed')).status).toBe(403);
    expect((await del(carol, '/api/v1/channels/secret-room')).status).toBe(404);
    const res = await del(alice, '/api/v1/channels/doomed');
    expect(res.status).toBe(204);
    expect((await alice.get('/api/v1/channels/doomed')).status).toBe(404);
    expect((await del(alice, '/api/v1/channels/doomed')).status).toBe(404);
    for (const table of ['messages', 'channel_summary_history', 'thread_summaries', 'threads']) {
      const rows = await db.query(`SELECT * FROM ${table} t WHERE t::text LIKE '%doomed-s3cr3t%' OR t::text LIKE '%d-1%'`);
      expect({ table, rows }).toEqual({ table, rows: [] });
    }
    expect((await alice.post('/api/v1/channels', { name: 'doomed' })).status).toBe(201);
    expect((await alice.get('/api/v1/channels/doomed/messages')).body).toEqual([]);
    expect((await t.admin.get('/api/v1/audit')).body.some((e: { action: string; channel: string; actor: string }) => e.action === 'channel.delete' && e.channel === 'doomed' && e.actor === 'alice')).toBe(true);
    expect((await del(alice, '/api/v1/channels/doomed?force=1')).status).toBe(400);
  });

  it('erasing an agent (admin) revokes it and redacts every message it sent, in every channel, audited', async () => {
    const dave = await t.agent('dave');
    expect((await alice.post('/api/v1/channels', { name: 'erase-a' })).status).toBe(201);
    expect((await alice.post('/api/v1/channels', { name: 'erase-b', members: ['alice', 'dave'] })).status).toBe(201);
    for (let i = 0; i < 3; i++) await post(dave, 'erase-a', { type: 'STATUS', content: `dave-s3cr3t ${i}` });
    await post(alice, 'erase-a', { type: 'STATUS', content: 'alice stays' });
    await post(dave, 'erase-b', { type: 'STATUS', content: 'dave-s3cr3t private' });
    expect((await del(alice, '/api/v1/agents/dave?erase=true')).status).toBe(403);
    expect((await del(t.admin, '/api/v1/agents/dave?erase=maybe')).status).toBe(400);
    const res = await del(t.admin, '/api/v1/agents/dave?erase=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'dave', erased: 4 });
    expect((await dave.get('/api/v1/channels')).status).toBe(401);
    const a = (await alice.get('/api/v1/channels/erase-a/messages')).body;
    expect(a.map((m: { content: string | null }) => m.content)).toEqual([null, null, null, 'alice stays']);
    const rows = await db.query(`SELECT seq FROM messages WHERE content LIKE '%dave-s3cr3t%'`);
    expect(rows).toEqual([]);
    const audit = (await t.admin.get('/api/v1/audit?limit=1000')).body.filter((e: { reason?: string }) => e.reason === "agent 'dave' erased");
    expect(audit).toHaveLength(4);
  });

  it('MCP revoke_agent with erase true (admin) does the same, and answers how many it redacted', async () => {
    const erin = await t.agent('erin');
    await post(erin, 'erase-a', { type: 'STATUS', content: 'erin-s3cr3t' });
    const mcp = await connectMcp(t.baseUrl, t.admin.token);
    try {
      expect(await useTool(mcp, 'revoke_agent', { name: 'erin', erase: true })).toMatchObject({ name: 'erin', erased: 1 });
    } finally {
      await mcp.close();
    }
    expect(await db.query(`SELECT seq FROM messages WHERE content LIKE '%erin-s3cr3t%'`)).toEqual([]);
  });
});
