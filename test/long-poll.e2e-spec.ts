import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LongPollWaits } from '../apps/channel-service/src/message-store/long-poll-waits';
import { ApiClient, waitFor } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

/** Small bounds, so the tests can reach them. */
const MAX_WAIT_MS = 5_000;
const MAX_WAITS_PER_AGENT = 2;
const ENV = { QHORUS_LONG_POLL_MAX_MS: String(MAX_WAIT_MS), QHORUS_LONG_POLL_MAX_PER_AGENT: String(MAX_WAITS_PER_AGENT) };

/** Resolves once `n` waits are asleep on `app`: subscribed, re-read, waiting for a post. */
/** One tool call on a connection of its own, closed afterwards. */
async function callOnce(baseUrl: string, token: string | undefined, name: string, args: Record<string, unknown>) {
  const client = await connectMcp(baseUrl, token);
  try {
    return await callTool(client, name, args);
  } finally {
    await client.close();
  }
}

const asleep = (app: NestFastifyApplication, n: number) => waitFor(async () => app.get(LongPollWaits).sleepingCount === n, `${n} sleeping wait(s)`);

describe('long poll: GET …/messages?waitMs= and MCP wait_for_messages', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient;
  let aliceMcp: Client, bobMcp: Client;

  beforeAll(async () => {
    t = await startTestApp('long-poll', { env: ENV });
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((n) => t.agent(n)));
    aliceMcp = await connectMcp(t.baseUrl, alice.token);
    bobMcp = await connectMcp(t.baseUrl, bob.token);
    await alice.post('/api/v1/channels', { name: 'coord' });
  });
  afterAll(async () => {
    await aliceMcp?.close();
    await bobMcp?.close();
    await t?.close();
  });

  it('two agents over MCP: B, blocked in wait_for_messages addressed to it, wakes with A\'s QUERY; A\'s wait returns B\'s answer', async () => {
    const bWaits = useTool(bobMcp, 'wait_for_messages', { channel: 'coord', addressed_to_me: true, timeout_s: MAX_WAIT_MS / 1000 });
    await asleep(t.app, 1);
    // Not for B: it must not end B's wait.
    await useTool(aliceMcp, 'send_message', { channel: 'coord', type: 'STATUS', content: 'starting the release' });
    await useTool(aliceMcp, 'send_message', { channel: 'coord', type: 'STATUS', content: 'carol, your turn', target: 'carol' });
    const query = await useTool(aliceMcp, 'send_message', { channel: 'coord', type: 'QUERY', content: 'Is the build green?', target: 'bob' });

    const woken = await bWaits;
    expect(woken.timedOut).toBe(false);
    expect(woken.messages.map((m: any) => [m.seq, m.type, m.sender, m.target])).toEqual([[query.seq, 'QUERY', 'alice', 'bob']]);
    expect(woken.nextAfterSeq).toBe(query.seq);

    const aWaits = useTool(aliceMcp, 'wait_for_messages', { channel: 'coord', after_seq: query.seq, correlation_id: query.correlationId, timeout_s: 5 });
    await asleep(t.app, 1);
    await useTool(bobMcp, 'send_message', { channel: 'coord', type: 'STATUS', content: 'looking' }); // not the answer
    const answer = await useTool(bobMcp, 'send_message', {
      channel: 'coord',
      type: 'RESPONSE',
      content: 'Green.',
      correlation_id: query.correlationId,
      in_reply_to: query.seq,
    });
    const answered = await aWaits;
    expect(answered.messages.map((m: any) => [m.seq, m.type, m.content])).toEqual([[answer.seq, 'RESPONSE', 'Green.']]);
  });

  it('answers at once when a matching message is already there, and with an empty page at waitMs', async () => {
    await alice.post('/api/v1/channels', { name: 'ready' });
    const first = (await bob.post('/api/v1/channels/ready/messages', { content: 'here already' })).body;
    const now = await alice.get(`/api/v1/channels/ready/messages?afterSeq=0&waitMs=${MAX_WAIT_MS}`);
    expect(now.status).toBe(200);
    expect(now.body.map((m: any) => m.seq)).toEqual([first.seq]);

    const idle = await alice.get(`/api/v1/channels/ready/messages?afterSeq=${first.seq}&waitMs=50`);
    expect(idle).toMatchObject({ status: 200, body: [] });
    const timedOut = await useTool(aliceMcp, 'wait_for_messages', { channel: 'ready', timeout_s: 0.05 });
    expect(timedOut).toMatchObject({ afterSeq: first.seq, messages: [], nextAfterSeq: first.seq, timedOut: true });
  });

  it('is not woken by EVENT telemetry unless includeEvents, and honours the filters while waiting', async () => {
    await alice.post('/api/v1/channels', { name: 'noisy' });
    const plain = alice.get(`/api/v1/channels/noisy/messages?afterSeq=0&waitMs=${MAX_WAIT_MS}`);
    const commands = carol.get(`/api/v1/channels/noisy/messages?afterSeq=0&waitMs=${MAX_WAIT_MS}&type=COMMAND&sender=bob`);
    await asleep(t.app, 2);
    await bob.post('/api/v1/channels/noisy/messages', { type: 'EVENT', content: 'cpu 93%' });
    await bob.post('/api/v1/channels/noisy/messages', { type: 'STATUS', content: 'working' });
    await alice.post('/api/v1/channels/noisy/messages', { type: 'COMMAND', content: 'not from bob' });
    await bob.post('/api/v1/channels/noisy/messages', { type: 'COMMAND', content: 'deploy' });
    expect((await plain).body.map((m: any) => m.content)).toEqual(['working']);
    expect((await commands).body.map((m: any) => m.content)).toEqual(['deploy']);
    const telemetry = await alice.get(`/api/v1/channels/noisy/messages?afterSeq=0&waitMs=${MAX_WAIT_MS}&includeEvents=true&limit=1`);
    expect(telemetry.body.map((m: any) => m.type)).toEqual(['EVENT']);
  });

  it('caps concurrent waits per agent (429 naming the limit), releases a slot when the client leaves, and leaves other agents alone', async () => {
    await alice.post('/api/v1/channels', { name: 'capped' });
    const url = `/api/v1/channels/capped/messages?waitMs=${MAX_WAIT_MS}`;
    const gone = new AbortController();
    const leaving = fetch(`${t.baseUrl}${url}`, { headers: { authorization: `Bearer ${carol.token}` }, signal: gone.signal }).catch(() => 'aborted');
    const staying = carol.get(url);
    await asleep(t.app, 2);
    const refused = await carol.get(url);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, details: [{ field: 'waitMs' }] });
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.message).toContain(`at most ${MAX_WAITS_PER_AGENT} concurrent waits`);
    expect((await callOnce(t.baseUrl, carol.token, 'wait_for_messages', { channel: 'capped', timeout_s: 1 })).body).toMatchObject({ statusCode: 429 });
    const bobsWait = bob.get(url); // another agent: its own slots
    await asleep(t.app, 3);

    gone.abort();
    expect(await leaving).toBe('aborted');
    await asleep(t.app, 2);
    const again = carol.get(url); // the slot the leaver held is free again
    await asleep(t.app, 3);
    await alice.post('/api/v1/channels/capped/messages', { content: 'wake up' });
    for (const res of await Promise.all([staying, bobsWait, again])) expect(res.body.map((m: any) => m.content)).toEqual(['wake up']);
    expect(t.app.get(LongPollWaits).count).toBe(0);
  });

  it('a wait_for_messages the official client cancels frees its slot at once (its cancel arrives as a POST of its own)', async () => {
    const waits = Array.from({ length: MAX_WAITS_PER_AGENT }, () => new AbortController());
    const calls = waits.map((w) =>
      bobMcp.callTool({ name: 'wait_for_messages', arguments: { channel: 'coord', timeout_s: MAX_WAIT_MS / 1000 } }, undefined, { signal: w.signal }).catch((e: Error) => e),
    );
    await asleep(t.app, MAX_WAITS_PER_AGENT);
    expect((await bob.get(`/api/v1/channels/coord/messages?waitMs=10`)).status).toBe(429);
    for (const w of waits) w.abort();
    for (const outcome of await Promise.all(calls)) expect(outcome).toBeInstanceOf(Error);
    // Well before the waits' own timeout (MAX_WAIT_MS), the slots are free again.
    await waitFor(async () => t.app.get(LongPollWaits).count === 0, 'the cancelled waits to end', MAX_WAIT_MS / 2);
    expect((await bob.get(`/api/v1/channels/coord/messages?waitMs=10`)).status).toBe(200);
  });

  it('a cancel that reaches another instance than its wait (as behind a load balancer) still ends the wait where it runs', async () => {
    const other = await startAnotherInstance(t, { env: ENV });
    const mcpPost = (baseUrl: string, message: Record<string, unknown>) =>
      fetch(`${baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bob.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
    try {
      const call = (id: string) => ({ id, method: 'tools/call', params: { name: 'wait_for_messages', arguments: { channel: 'coord', timeout_s: MAX_WAIT_MS / 1000 } } });
      const waiting = mcpPost(t.baseUrl, call('far-1'));
      const untouched = mcpPost(t.baseUrl, call('far-2')); // stays: the cancel below names far-1 only
      await asleep(t.app, 2);
      const cancelled = await mcpPost(other.baseUrl, { method: 'notifications/cancelled', params: { requestId: 'far-1', reason: 'gave up' } });
      expect(cancelled.status).toBe(202);
      await waitFor(async () => t.app.get(LongPollWaits).sleepingCount === 1, 'the cancelled wait to end on the first instance', MAX_WAIT_MS / 2);
      const answered: any = await (await waiting).json();
      expect(answered).toMatchObject({ jsonrpc: '2.0', id: 'far-1' });
      expect(answered.result.isError).toBeFalsy();
      await (await mcpPost(other.baseUrl, { method: 'notifications/cancelled', params: { requestId: 'far-2' } })).text();
      expect(((await (await untouched).json()) as { id: string }).id).toBe('far-2');
      expect(t.app.get(LongPollWaits).count).toBe(0);
    } finally {
      await other.app.close();
    }
  });

  it('refuses bad input with a 400 naming the field and the limit, and a channel the caller may not read with the missing channel\'s 404', async () => {
    const over = await alice.get(`/api/v1/channels/coord/messages?waitMs=${MAX_WAIT_MS + 1}`);
    expect(over.status).toBe(400);
    expect(over.body.details).toEqual([{ field: 'waitMs', problems: [`must be at most ${MAX_WAIT_MS} (QHORUS_LONG_POLL_MAX_MS)`] }]);
    for (const afterSeq of ['-1', '1.5', 'soon']) {
      const bad = await alice.get(`/api/v1/channels/coord/messages?afterSeq=${afterSeq}&waitMs=10`);
      expect(bad.status).toBe(400);
      expect(bad.body.details.map((d: any) => d.field)).toEqual(['afterSeq']);
    }
    const backwards = await alice.get('/api/v1/channels/coord/messages?tail=5&waitMs=10');
    expect(backwards.status).toBe(400);
    expect(backwards.body.details[0].field).toBe('tail');
    const mcpOver = await callTool(aliceMcp, 'wait_for_messages', { channel: 'coord', timeout_s: MAX_WAIT_MS / 1000 + 1 });
    expect(mcpOver.isError).toBe(true);
    expect(mcpOver.body.details).toEqual([{ field: 'timeout_s', problems: [`must be at most ${MAX_WAIT_MS / 1000} (QHORUS_LONG_POLL_MAX_MS)`] }]);

    await alice.post('/api/v1/channels', { name: 'private-wait', members: ['bob'] });
    const hidden = await carol.get('/api/v1/channels/private-wait/messages?waitMs=1000');
    const missing = await carol.get('/api/v1/channels/no-such-channel/messages?waitMs=1000');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ ...missing.body, message: "Channel 'private-wait' not found" });
    const mcpHidden = await callOnce(t.baseUrl, carol.token, 'wait_for_messages', { channel: 'private-wait', timeout_s: 1 });
    expect(mcpHidden.body).toMatchObject({ statusCode: 404, message: "Channel 'private-wait' not found" });
    expect(t.app.get(LongPollWaits).count).toBe(0);
  });

  describe('across two API instances (Redis fan-out)', () => {
    let second: NestFastifyApplication;
    let secondUrl: string;

    beforeAll(async () => {
      ({ app: second, baseUrl: secondUrl } = await startAnotherInstance(t, { env: ENV }));
    });
    afterAll(() => second?.close());

    it('a waiting member removed from the channel, or an agent revoked on the other instance, gets no message posted after it (404 / 401)', async () => {
      const dave = await t.agent('dave-waits');
      const erin = await t.agent('erin-waits');
      await alice.post('/api/v1/channels', { name: 'kick', members: ['dave-waits', 'erin-waits'] });
      const daveWaits = dave.get(`/api/v1/channels/kick/messages?afterSeq=0&waitMs=${MAX_WAIT_MS}`);
      const erinMcp = await connectMcp(t.baseUrl, erin.token);
      try {
        const erinWaits = callTool(erinMcp, 'wait_for_messages', { channel: 'kick', timeout_s: MAX_WAIT_MS / 1000 });
        await asleep(t.app, 2);
        expect((await alice.patch('/api/v1/channels/kick', { members: ['erin-waits'] })).status).toBe(200);
        expect((await new ApiClient(secondUrl, t.admin.token).request('DELETE', '/api/v1/agents/erin-waits')).status).toBe(200);
        await alice.post('/api/v1/channels/kick/messages', { content: 'secret after the change' });
        const removed = await daveWaits;
        expect(removed.status).toBe(404);
        expect(JSON.stringify(removed.body)).not.toContain('secret');
        const revoked = await erinWaits;
        expect(revoked.isError).toBe(true);
        expect(revoked.body).toMatchObject({ statusCode: 401 });
        expect(JSON.stringify(revoked.body)).not.toContain('secret');
      } finally {
        await erinMcp.close();
      }
    });

    it('wakes a wait on one instance with a post made on the other, over REST and over MCP', async () => {
      await alice.post('/api/v1/channels', { name: 'spread' });
      const bobThere = new ApiClient(secondUrl, bob.token);
      const bobMcpThere = await connectMcp(secondUrl, bob.token);
      try {
        const rest = bobThere.get(`/api/v1/channels/spread/messages?afterSeq=0&waitMs=${MAX_WAIT_MS}&target=bob`);
        const mcp = useTool(bobMcpThere, 'wait_for_messages', { channel: 'spread', addressed_to_me: true, timeout_s: MAX_WAIT_MS / 1000 });
        await asleep(second, 2);
        await alice.post('/api/v1/channels/spread/messages', { content: 'for everyone' });
        const query = (await alice.post('/api/v1/channels/spread/messages', { type: 'QUERY', content: 'bob?', target: 'bob' })).body;
        expect((await rest).body.map((m: any) => m.seq)).toEqual([query.seq]);
        expect((await mcp).messages.map((m: any) => m.seq)).toEqual([query.seq]);
      } finally {
        await bobMcpThere.close();
      }
    });
  });
});
