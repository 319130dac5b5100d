import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ApiClient } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { startTestApp, TestApp } from './support/test-app';

/** The sweep runs every 500 ms in tests: this is several rounds. */
const SEVERAL_SWEEPS_MS = 2_000;

/**
 * Archive (DESIGN §10): creator or admin; read-only (posts, batches and MCP send_message are a
 * 409 naming the state), no summary job, left out of GET /channels unless ?archived=true, audited.
 */
describe('archive', () => {
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let mcp: Client;

  beforeAll(async () => {
    t = await startTestApp('archive', { inProcessQueue: true });
    alice = await t.agent('alice');
    bob = await t.agent('bob');
    mcp = await connectMcp(t.baseUrl, alice.token);
    expect((await alice.post('/api/v1/channels', { name: 'shelf', summaryThreshold: 100 })).status).toBe(201);
    expect((await alice.post('/api/v1/channels', { name: 'secret-shelf', members: ['alice'] })).status).toBe(201);
    expect((await alice.post('/api/v1/channels', { name: 'open-shelf' })).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await alice.post('/api/v1/channels/shelf/messages', { type: 'STATUS', content: `before ${i}` })).status).toBe(201);
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  const names = async (query = '') => ((await alice.get(`/api/v1/channels${query}`)).body as { name: string }[]).map((c) => c.name);

  it('only the creator or the admin archives; a private channel the caller cannot see is a 404', async () => {
    const refused = await bob.post('/api/v1/channels/shelf/archive');
    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('creator or the admin');
    expect((await bob.post('/api/v1/channels/secret-shelf/archive')).status).toBe(404);
    expect((await bob.post('/api/v1/channels/nowhere/archive')).status).toBe(404);
    expect((await alice.get('/api/v1/channels/shelf')).body.archived).toBe(false);
  });

  it('archived: read-only (post, batch, MCP send_message → 409 saying archived), hidden unless ?archived=true, audited', async () => {
    const archived = await alice.post('/api/v1/channels/shelf/archive');
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ name: 'shelf', archived: true, lastSeq: 5 });
    expect((await alice.post('/api/v1/channels/shelf/archive')).body.archived).toBe(true); // again: unchanged

    const post = await alice.post('/api/v1/channels/shelf/messages', { type: 'STATUS', content: 'after' });
    expect(post.status).toBe(409);
    expect(post.body.message).toMatch(/archived/);
    const batch = await alice.post('/api/v1/channels/shelf/messages/batch', { messages: [{ type: 'STATUS', content: 'after' }] });
    expect(batch.status).toBe(409);
    expect(batch.body.message).toMatch(/archived/);
    const tool = await callTool(mcp, 'send_message', { channel: 'shelf', type: 'STATUS', content: 'after' });
    expect(tool.isError).toBe(true);
    expect(tool.text).toMatch(/archived/);
    expect((await alice.get('/api/v1/channels/shelf')).body).toMatchObject({ archived: true, lastSeq: 5 });
    // Still readable.
    expect((await alice.get('/api/v1/channels/shelf/messages')).body).toHaveLength(5);

    expect(await names()).not.toContain('shelf');
    expect(await names('?archived=false')).not.toContain('shelf');
    expect(await names('?archived=true')).toEqual(expect.arrayContaining(['shelf', 'open-shelf']));
    expect((await alice.get('/api/v1/channels?archived=maybe')).status).toBe(400);

    const audit = (await t.admin.get('/api/v1/audit?limit=1000')).body.filter((a: { channel: string }) => a.channel === 'shelf');
    expect(audit.map((a: { action: string; actor: string }) => [a.action, a.actor])).toEqual([['channel.archive', 'alice']]);
  });

  it('an archived channel runs no summary job (trigger, sweep, refresh); unarchived, its backlog is summarised', async () => {
    // Past the threshold now: a reconfiguration triggers a job for any channel that is due.
    expect((await alice.patch('/api/v1/channels/shelf', { summaryThreshold: 1 })).status).toBe(200);
    const refresh = await alice.post('/api/v1/channels/shelf/summary/refresh');
    expect(refresh.status).toBe(409);
    expect(refresh.body.message).toMatch(/archived/);
    const override = await alice.put('/api/v1/channels/shelf/summary', { text: 'by hand' });
    expect(override.status).toBe(409);
    await new Promise((r) => setTimeout(r, SEVERAL_SWEEPS_MS));
    expect((await alice.get('/api/v1/channels/shelf/summary')).body).toMatchObject({ version: 0, coversThroughSeq: 0 });

    const unarchived = await t.admin.post('/api/v1/channels/shelf/unarchive');
    expect(unarchived.status).toBe(200);
    expect(unarchived.body.archived).toBe(false);
    expect(await names()).toContain('shelf');
    const summary = await (async () => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        const s = (await alice.get('/api/v1/channels/shelf/summary')).body;
        if (s.coversThroughSeq === 5) return s;
      }
      throw new Error('the backlog was not summarised after unarchiving');
    })();
    expect(summary.version).toBeGreaterThanOrEqual(1);
    expect((await alice.post('/api/v1/channels/shelf/messages', { type: 'STATUS', content: 'after' })).status).toBe(201);
    const audit = (await t.admin.get('/api/v1/audit?limit=1000')).body.filter((a: { channel: string }) => a.channel === 'shelf');
    expect(audit.map((a: { action: string; actor: string }) => [a.action, a.actor])).toEqual([
      ['channel.archive', 'alice'],
      ['channel.unarchive', 'admin'],
    ]);
  });
  it('a redaction still reaches an archived channel: the tombstone and the rewind at once, the replay once unarchived', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'shelved-secret', summariser: 'verbatim', summaryThreshold: 1 })).status).toBe(201);
    await alice.post('/api/v1/channels/shelved-secret/messages', { type: 'STATUS', content: 'before' });
    const leaked = await alice.post('/api/v1/channels/shelved-secret/messages', { type: 'STATUS', content: 'the key sk-shelf-0123456789' });
    await alice.post('/api/v1/channels/shelved-secret/messages', { type: 'STATUS', content: 'after' });
    const summarised = async (ok: (s: { coversThroughSeq: number; text: string }) => boolean) => {
      for (const deadline = Date.now() + 20_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        const s = (await alice.get('/api/v1/channels/shelved-secret/summary')).body;
        if (ok(s)) return s;
      }
      throw new Error('the summary never got there');
    };
    expect((await summarised((s) => s.coversThroughSeq === 3)).text).toContain('sk-shelf-0123456789');
    expect((await alice.post('/api/v1/channels/shelved-secret/archive')).status).toBe(200);

    const redacted = await alice.post(`/api/v1/channels/shelved-secret/messages/${leaked.body.seq}/redact`, { reason: 'a key was pasted' });
    expect(redacted.status).toBe(200);
    expect(redacted.body).toMatchObject({ content: null, redacted: { by: 'alice' } });
    const rewound = (await alice.get('/api/v1/channels/shelved-secret/summary')).body;
    expect(rewound.text).not.toContain('sk-shelf-0123456789');
    expect(rewound.coversThroughSeq).toBeLessThan(leaked.body.seq);
    const history = (await alice.get('/api/v1/channels/shelved-secret/summary/history')).body as { text: string }[];
    expect(history.some((h) => h.text.includes('sk-shelf-0123456789'))).toBe(false);
    await new Promise((r) => setTimeout(r, SEVERAL_SWEEPS_MS)); // archived: no replay
    expect((await alice.get('/api/v1/channels/shelved-secret/summary')).body.coversThroughSeq).toBe(rewound.coversThroughSeq);

    expect((await alice.post('/api/v1/channels/shelved-secret/unarchive')).status).toBe(200);
    const replayed = await summarised((s) => s.coversThroughSeq === 3);
    expect(replayed.text).toContain('[redacted]');
    expect(replayed.text).not.toContain('sk-shelf-0123456789');
  });
});
