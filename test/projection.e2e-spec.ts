import { getSummary, postMany, waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { ApiClient } from './support/http';
import { expectValidProjection, getContext, summaryBlockOf } from './support/projection-helpers';
import { startTestApp, TestApp } from './support/test-app';

const FORMATS = ['anthropic', 'openai', 'text'];

describe('projection: GET /api/v1/channels/{name}/context', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, dave: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('projection');
    [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((n) => t.agent(n)));
    await alice.post('/api/v1/channels', { name: 'ctx', summaryThreshold: 20, description: 'Release planning' });
    const speakers = [alice, bob, carol];
    for (let i = 1; i <= 25; i++) {
      const res = await speakers[i % 3].post('/api/v1/channels/ctx/messages', { content: `step ${i}: ${i % 5 === 0 ? 'decided to ship on Friday' : 'progress'}` });
      expect(res.status).toBe(201);
    }
    await waitForSummary(alice, 'ctx', (s) => s.version >= 1, 'the first summary');
    await waitForQuietSummary(alice, 'ctx');
  });
  afterAll(() => t?.close());

  it('keeps the summary block byte-identical across a new message that does not cross the threshold', async () => {
    const summary = await getSummary(alice, 'ctx');
    const before = Object.fromEntries(await Promise.all(FORMATS.map(async (f) => [f, await getContext(alice, 'ctx', { format: f })])));
    const posted = await bob.post('/api/v1/channels/ctx/messages', { type: 'QUERY', content: 'is Friday still on?' });
    expect(posted.status).toBe(201);
    expect((await getSummary(alice, 'ctx')).pending).toBeLessThan(20);
    for (const format of FORMATS) {
      const after = await getContext(alice, 'ctx', { format });
      expect(after.summaryVersion).toBe(summary.version);
      expect(summaryBlockOf(after)).toBe(summaryBlockOf(before[format]));
      expect(summaryBlockOf(after)).toContain(`[Summary of messages 1–${summary.coversThroughSeq} (v${summary.version}). Expand with check_messages after_seq=0.]`);
      expect(JSON.stringify(after.messages ?? after.text)).toContain('is Friday still on?');
      expect(JSON.stringify(before[format].messages ?? before[format].text)).not.toContain('is Friday still on?');
    }
  });

  it('shows the viewer\'s own messages as assistant turns and everyone else\'s as tagged user turns', async () => {
    const summary = await getSummary(alice, 'ctx');
    const asBob = await getContext(bob, 'ctx', { format: 'openai' });
    const asCarol = await getContext(alice, 'ctx', { format: 'openai', viewer: 'carol' });
    expect(asBob).toMatchObject({ viewer: 'bob', coversThroughSeq: summary.coversThroughSeq, lastSeq: summary.lastSeq });
    const tail = asBob.messages.slice(1);
    expect(tail.length).toBe(summary.lastSeq - summary.coversThroughSeq);
    const query = tail[tail.length - 1];
    expect(query).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'is Friday still on?' }] });
    expect(asCarol.messages[asCarol.messages.length - 1]).toEqual({ role: 'user', content: [{ type: 'text', text: expect.stringMatching(/^\[bob · QUERY #26 · corr [^\]]+\] is Friday still on\?$/) }] });
    expect(asBob.historyTokens).toBeGreaterThan(asBob.projectedTokens);
  });

  it('over budget, folds the oldest messages into a digest naming the seq range, newest verbatim, within maxTokens', async () => {
    await alice.post('/api/v1/channels', { name: 'long', summaryThreshold: 10_000 });
    await postMany(bob, 'long', 80, (i) => `finding ${i + 1}: ${'the cache misses on cold start and the retry storm follows. '.repeat(3)}`);
    await alice.post('/api/v1/channels/long/messages', { type: 'EVENT', content: 'telemetry never shows' });
    for (const format of FORMATS) {
      const p = await getContext(alice, 'long', { maxTokens: 1500, keepLast: 4, format });
      expect(p.summaryVersion).toBe(0);
      expect(p.digest).toMatchObject({ fromSeq: 1 });
      expect(p.verbatimFromSeq).toBe(p.digest.toSeq + 1);
      expect(p.verbatimFromSeq).toBeLessThanOrEqual(77);
      expect(p.projectedTokens).toBeLessThanOrEqual(1500);
      expect(p.historyTokens).toBeGreaterThan(3 * p.projectedTokens);
      const all = JSON.stringify(p.messages ?? p.text);
      expect(all).toContain(`[Digest of messages 1–${p.digest.toSeq}, not yet in the summary. Expand with check_messages after_seq=0.]`);
      expect(all).toContain('finding 80:');
      expect(all).not.toContain('telemetry never shows');
    }
    // The marker's expansion works as it says.
    const expanded = await alice.get('/api/v1/channels/long/messages?afterSeq=0&limit=3');
    expect(expanded.body.map((m: any) => m.seq)).toEqual([1, 2, 3]);
  });

  it('cuts a single message larger than the whole budget, with a marker, rather than exceed it', async () => {
    await alice.post('/api/v1/channels', { name: 'huge' });
    const big = await bob.post('/api/v1/channels/huge/messages', { content: 'log line with numbers 12345 and symbols {}[]; '.repeat(1200) });
    expect(big.status).toBe(201);
    const p = await getContext(alice, 'huge', { maxTokens: 400, keepLast: 1 });
    expect(p.truncatedSeqs).toEqual([1]);
    expect(JSON.stringify(p.messages)).toContain('[cut to fit maxTokens; check_messages after_seq=0 limit=1 returns it whole]');
  });

  it('projects an empty channel as one non-blank user message', async () => {
    await alice.post('/api/v1/channels', { name: 'empty' });
    const p = await getContext(alice, 'empty');
    expect(p.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: '[No channel summary yet; messages from seq 1 follow.]' }] }]);
    expect(p).toMatchObject({ historyTokens: 0, lastSeq: 0, digest: null, verbatimFromSeq: null });
  });

  it('refuses bad parameters with a 400 naming them', async () => {
    const cases: [string, RegExp][] = [
      ['format=xml', /format must be one of anthropic, openai, text/],
      ['maxTokens=10', /maxTokens must not be less than 256/],
      ['keepLast=-1', /keepLast must not be less than 0/],
      ['keepLast=100&maxTokens=300', /maxTokens 300 cannot hold keepLast 100: give maxTokens ≥ 6528 or keepLast ≤ 2/],
      ['viewer=not%20a%20name', /viewer must be an agent name/],
      ['colour=red', /property colour should not exist/],
    ];
    for (const [query, message] of cases) {
      const res = await alice.get(`/api/v1/channels/ctx/context?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.message).toMatch(message);
    }
  });

  it('honours membership: 404 for a non-member, 401 without a token', async () => {
    await alice.post('/api/v1/channels', { name: 'secret', members: ['bob'] });
    await bob.post('/api/v1/channels/secret/messages', { content: 'members only' });
    expect((await dave.get('/api/v1/channels/secret/context')).status).toBe(404);
    expect((await t.anonymous.get('/api/v1/channels/secret/context')).status).toBe(401);
    expectValidProjection((await bob.get('/api/v1/channels/secret/context')).body);
  });
});
