import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { Message, SummaryResult } from '@qhorus/api';
import { callTool, connectMcp } from './support/mcp-client';
import { ApiClient } from './support/http';
import { getSummary, postMany, waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { startTestApp, TestApp } from './support/test-app';

/** A summariser that takes its time, to prove posts during a job are not skipped. */
class SlowRecordingSummariser implements ContentSummariser<Message> {
  readonly batches: number[][] = [];
  running = false;
  constructor(private readonly delayMs: number) {}
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    this.running = true;
    this.batches.push(items.map((m) => m.seq));
    await new Promise((r) => setTimeout(r, this.delayMs));
    this.running = false;
    return { text: `${previous?.text ?? ''}\nbatch ${items[0].seq}-${items[items.length - 1].seq}`.trim(), annotations: { ...previous?.annotations } };
  }
}

describe('foundation: the channel service end to end on Postgres and BullMQ', () => {
  let t: TestApp;
  const slow = new SlowRecordingSummariser(1_500);
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, dave: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('foundation', { summarisers: { slow } });
    [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((n) => t.agent(n)));
  });
  afterAll(() => t?.close());

  it('fills the summary slot by itself once the backlog crosses the threshold, and carries annotations forward', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'planning', summaryThreshold: 20 })).status).toBe(201);
    const before = await getSummary(alice, 'planning');
    expect(before).toMatchObject({ text: '', version: 0, coversThroughSeq: 0, lastSeq: 0, pending: 0, lastError: null });

    const agents = [alice, bob, carol];
    for (let i = 0; i < 25; i++) {
      const res = await agents[i % 3].post('/api/v1/channels/planning/messages', { type: 'STATUS', content: `step ${i} of the plan` });
      expect(res.status).toBe(201);
    }
    const first = await waitForSummary(alice, 'planning', (s) => s.version >= 1, 'the first summary');
    expect(first.coversThroughSeq).toBeGreaterThanOrEqual(20);
    expect(JSON.parse(first.annotations.participants).sort()).toEqual(['alice', 'bob', 'carol']);
    expect(first.pending).toBe(first.lastSeq - first.coversThroughSeq);
    expect(first.text.length).toBeGreaterThan(0);

    const settled = await waitForQuietSummary(alice, 'planning');
    await postMany(dave, 'planning', 20, (i) => `dave's note ${i}`);
    const next = await waitForSummary(alice, 'planning', (s) => s.version === settled.version + 1, 'the next summary');
    expect(JSON.parse(next.annotations.participants).sort()).toEqual(['alice', 'bob', 'carol', 'dave']);
    // The newest step's batch started after seq 1, yet the period still starts at seq 1's time:
    // the first result's annotations reached the second call.
    const history = (await alice.get('/api/v1/channels/planning/summary/history')).body;
    expect(history[0]).toMatchObject({ version: next.version, coversFromSeq: settled.coversThroughSeq + 1 });
    const firstMessage = (await alice.get('/api/v1/channels/planning/messages?limit=1')).body[0];
    expect(new Date(next.annotations.periodStart).getTime()).toBe(new Date(firstMessage.createdAt).getTime());
  });

  it('gives 200 concurrent posts seq 1..200 exactly once, and covers each message by exactly one summary step', async () => {
    await alice.post('/api/v1/channels', { name: 'busy', summaryThreshold: 20 });
    const posters = [alice, bob, carol, dave];
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => posters[i % 4].post('/api/v1/channels/busy/messages', { content: `m${i}` })),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    expect(results.map((r) => r.body.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));

    await alice.post('/api/v1/channels/busy/summary/refresh');
    await waitForSummary(alice, 'busy', (s) => s.coversThroughSeq === 200, 'the summary to cover all 200');
    const history = (await alice.get('/api/v1/channels/busy/summary/history?limit=1000')).body.slice().reverse();
    expect(history[0].coversFromSeq).toBe(1);
    for (let i = 1; i < history.length; i++) {
      expect(history[i].version).toBe(history[i - 1].version + 1);
      expect(history[i].coversFromSeq).toBe(history[i - 1].coversThroughSeq + 1);
      expect(history[i].coversThroughSeq).toBeGreaterThanOrEqual(history[i].coversFromSeq);
    }
    expect(history[history.length - 1].coversThroughSeq).toBe(200);
  });

  it('covers a message posted while a slow summariser runs in the next summary, never skipping it', async () => {
    await alice.post('/api/v1/channels', { name: 'slowpoke', summaryThreshold: 5, summariser: 'slow' });
    await postMany(alice, 'slowpoke', 5);
    await waitForSummary(alice, 'slowpoke', () => slow.running, 'the slow summariser to start', 10_000);
    const during = await bob.post('/api/v1/channels/slowpoke/messages', { content: 'posted during the job' });
    expect(during.body.seq).toBe(6);

    const first = await waitForSummary(alice, 'slowpoke', (s) => s.version >= 1, 'the first slow summary');
    expect(first.coversThroughSeq).toBe(5);
    expect(first.pending).toBe(1);

    await postMany(carol, 'slowpoke', 4);
    const second = await waitForSummary(alice, 'slowpoke', (s) => s.coversThroughSeq === 10, 'the second slow summary');
    expect(second.pending).toBe(0);
    expect(slow.batches).toEqual([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]);
  });

  describe('bad input gets a 4xx naming the problem, and writes nothing', () => {
    beforeAll(async () => {
      await alice.post('/api/v1/channels', { name: 'strict' });
      await alice.post('/api/v1/channels/strict/messages', { content: 'the only message' });
    });

    const cases: [string, Record<string, unknown>, number, RegExp][] = [
      ['an unknown type', { type: 'SHOUT', content: 'x' }, 400, /type must be one of/],
      ['FAILURE without content', { type: 'FAILURE' }, 400, /content/],
      ['FAILURE with blank content', { type: 'FAILURE', content: '   ' }, 400, /content must not be blank/],
      ['HANDOFF without target', { type: 'HANDOFF', content: 'yours' }, 400, /target/],
      ['an unknown field', { content: 'x', colour: 'red' }, 400, /property colour should not exist/],
      ['a sender other than the caller', { content: 'x', sender: 'bob' }, 403, /sender 'bob' is not the authenticated agent 'alice'/],
      ['content over the limit', { content: 'x'.repeat(70 * 1024) }, 413, /limit is 65536/],
      ['inReplyTo beyond the last message', { type: 'RESPONSE', content: 'x', inReplyTo: 99 }, 400, /inReplyTo 99/],
      ['inReplyTo beyond any seq', { type: 'RESPONSE', content: 'x', inReplyTo: 1e20 }, 400, /inReplyTo must not be greater than/],
      ['a NUL character in content', { content: 'a\u0000b' }, 400, /content must not contain NUL/],
      ['a NUL character in metadata', { content: 'x', metadata: { note: 'a\u0000b' } }, 400, /metadata.note must not contain NUL/],
      ['a lone surrogate in metadata', { content: 'x', metadata: { note: 'a\ud800' } }, 400, /metadata.note must be well-formed Unicode/],
      ['a lone surrogate in content', { content: 'x\udc00' }, 400, /content must be well-formed Unicode/],
      ['a field named like a member of every object', JSON.parse('{"content":"x","toString":1}'), 400, /toString is a member of every JavaScript object/],
      ['a metadata key named like one (it would be dropped)', { content: 'x', metadata: { constructor: 'kept?' } }, 400, /metadata.constructor is a member/],
    ];
    it.each(cases)('%s', async (_, body, status, message) => {
      const res = await alice.post('/api/v1/channels/strict/messages', body);
      expect(res.status).toBe(status);
      expect(res.body).toMatchObject({ statusCode: status, error: expect.any(String) });
      expect(res.body.message).toMatch(message);
      const messages = (await alice.get('/api/v1/channels/strict/messages')).body;
      expect(messages).toHaveLength(1);
      expect((await alice.get('/api/v1/channels/strict')).body.lastSeq).toBe(1);
    });

    it('a NUL or a lone surrogate anywhere is a 400 naming where it is: a batch message, a metadata key, a query, an MCP argument', async () => {
      const cases: [string, () => Promise<{ status: number; body: any }>, string][] = [
        ['batch', () => alice.post('/api/v1/channels/strict/messages/batch', { messages: [{ content: 'a' }, { content: 'b', metadata: { k: '\ud800' } }] }), 'messages.1.metadata.k'],
        ['key', () => alice.post('/api/v1/channels/strict/messages', { content: 'b', metadata: { 'k\u0000': 1 } }), 'metadata'],
        ['topic', () => alice.get('/api/v1/channels/strict/messages?topic=a%00b'), 'topic'],
        ['channel', () => alice.get('/api/v1/channels/a%00b/messages'), 'name'],
      ];
      for (const [what, send, field] of cases) {
        const res = await send();
        expect([what, res.status]).toEqual([what, 400]);
        expect([what, res.body.details]).toEqual([what, [{ field, problems: [expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')} (has a key that )?must`))] }]]);
      }
      const mcp = await connectMcp(t.baseUrl, alice.token);
      try {
        const tool = await callTool(mcp, 'send_message', { channel: 'strict', content: 'a\u0000b' });
        expect(tool.isError).toBe(true);
        expect(tool.body).toMatchObject({ statusCode: 400, details: [{ field: 'content' }] });
      } finally {
        await mcp.close();
      }
      expect((await alice.get('/api/v1/channels/strict')).body.lastSeq).toBe(1);
    });

    it('a body that is not JSON, or that holds a prototype key, is a 400 saying which (valid JSON is never called invalid)', async () => {
      await alice.post('/api/v1/channels', { name: 'strict-json' });
      const raw = (body: string) =>
        fetch(`${t.baseUrl}/api/v1/channels/strict-json/messages`, { method: 'POST', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' }, body });
      const cases: [string, RegExp][] = [
        ['{"content":', /^Body is not valid JSON: Unexpected end of JSON input/],
        ['', /content is required for this message type/], // no body: the fields are missing
        ['{"content":"x","__proto__":{"admin":true}}', /^Body may not contain the key "__proto__"/],
        ['{"content":"x","metadata":{"constructor":{"prototype":{"admin":true}}}}', /^Body may not contain the key "constructor" holding "prototype"/],
      ];
      for (const [body, message] of cases) {
        const res = await raw(body);
        expect([body, res.status]).toEqual([body, 400]);
        expect(await res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(message) });
      }
      // An empty body with the JSON header is no body: a bodiless route just works.
      const refresh = await fetch(`${t.baseUrl}/api/v1/channels/strict-json/summary/refresh`, { method: 'POST', headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' } });
      expect(refresh.status).toBe(202);
      const form = await fetch(`${t.baseUrl}/api/v1/channels/strict-json/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'content=hello',
      });
      expect([form.status, ((await form.json()) as any).message]).toEqual([415, 'Unsupported Media Type: send the body as application/json']);
      expect((await raw('{"content":"still fine"}')).status).toBe(201);
      const messages = (await alice.get('/api/v1/channels/strict-json/messages')).body;
      expect(messages.map((m: any) => m.content)).toEqual(['still fine']);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('an afterSeq beyond any seq is a 400 naming it', async () => {
      const res = await alice.get('/api/v1/channels/strict/messages?afterSeq=99999999999999999999999');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/afterSeq must not be greater than/);
    });

    it('a bad channel name is a 400 naming the rule, and creates nothing', async () => {
      const res = await alice.post('/api/v1/channels', { name: 'Not A Slug!' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/name must be a slug/);
      expect((await alice.get('/api/v1/channels')).body.map((c: any) => c.name)).not.toContain('Not A Slug!');
    });

    it('names every bad field at once', async () => {
      const res = await alice.post('/api/v1/channels', { name: 'ok-name', summaryThreshold: 0, summariser: 7 });
      expect(res.status).toBe(400);
      expect(res.body.details.map((d: any) => d.field).sort()).toEqual(['summariser', 'summaryThreshold']);
    });

    it('an unknown summariser is a 400 listing the known ones', async () => {
      const res = await alice.post('/api/v1/channels', { name: 'mystery', summariser: 'oracle' });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/Unknown summariser 'oracle'.*heuristic/);
    });

    it('a taken channel name is a 409', async () => {
      expect((await bob.post('/api/v1/channels', { name: 'strict' })).status).toBe(409);
    });

    it('QUERY and COMMAND get a correlation id when none is given', async () => {
      const res = await alice.post('/api/v1/channels/strict/messages', { type: 'query', content: 'anyone?' });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'QUERY', sender: 'alice', topic: 'general', correlationId: expect.any(String) });
    });

    it('a null sender is an absent one, like every other optional field (not a 403 about sender \'null\')', async () => {
      const res = await alice.post('/api/v1/channels/strict/messages', { content: 'from me', sender: null });
      expect(res.status).toBe(201);
      expect(res.body.sender).toBe('alice');
    });
  });

  describe('auth', () => {
    it('no token is a 401, a wrong token is a 401', async () => {
      expect((await t.anonymous.get('/api/v1/channels')).status).toBe(401);
      expect((await t.anonymous.as('qh_nope').get('/api/v1/channels')).status).toBe(401);
    });
    it('an agent token on an admin route is a 403', async () => {
      const res = await alice.post('/api/v1/agents', { name: 'mallory' });
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/admin/);
    });
    it('the name the admin token acts under is reserved: registering an agent "admin" is a 400 naming it', async () => {
      const res = await t.admin.post('/api/v1/agents', { name: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ field: 'name', problems: ["name 'admin' is reserved for the admin token"] }]);
      expect((await t.admin.get('/api/v1/agents')).body.map((a: { name: string }) => a.name)).not.toContain('admin');
    });

    it('the agent list is readable by agents and never shows tokens', async () => {
      const res = await alice.get('/api/v1/agents');
      expect(res.status).toBe(200);
      expect(res.body.map((a: any) => a.name)).toEqual(expect.arrayContaining(['alice', 'bob', 'carol', 'dave']));
      expect(JSON.stringify(res.body)).not.toMatch(/qh_/);
    });
  });
});
