import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ApiClient, waitFor } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { expectValidProjection, summaryBlockOf } from './support/projection-helpers';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const TOOLS = [
  'register',
  'revoke_agent',
  'rotate_agent_token',
  'create_channel',
  'list_channels',
  'send_message',
  'check_messages',
  'get_channel_summary',
  'configure_channel_summary',
  'trigger_channel_summary_update',
  'update_channel_summary',
  'get_channel_context',
  'wait_for_messages',
  'mark_read',
  'check_inbox',
  'list_threads',
  'get_thread',
  'search_messages',
];

describe('MCP: the agents\' tools over Streamable HTTP, with the official client', () => {
  let t: TestApp;
  let admin: Client;
  const clients: Client[] = [];

  async function connect(token?: string): Promise<Client> {
    const client = await connectMcp(t.baseUrl, token);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    t = await startTestApp('mcp');
    admin = await connect(TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await t?.close();
  });

  it('serves the tools, each described for an agent, with snake_case arguments', async () => {
    const { tools } = await admin.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(20); // compact: every description is in every agent's context (mcp-contract)
      for (const arg of Object.keys(tool.inputSchema.properties ?? {})) expect(arg).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
    const send = tools.find((tool) => tool.name === 'send_message')!;
    expect(send.inputSchema.required).toEqual(['channel']);
    expect(Object.keys(send.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['channel', 'type', 'content', 'topic', 'correlation_id', 'in_reply_to', 'target', 'metadata', 'idempotency_key']),
    );
    expect((send.inputSchema.properties as any).in_reply_to.type).toBe('integer');
    // Every filter its description names is advertised.
    const check = tools.find((tool) => tool.name === 'check_messages')!;
    expect(Object.keys(check.inputSchema.properties!)).toEqual(expect.arrayContaining(['type', 'topic', 'sender', 'correlation_id', 'target']));
  });

  it('register → create_channel → 25 × send_message → summary → check_messages → get_channel_context', async () => {
    const alice = await useTool(admin, 'register', { name: 'alice' });
    const bob = await useTool(admin, 'register', { name: 'bob' });
    expect(alice).toMatchObject({ name: 'alice', token: expect.stringMatching(/^qh_/) });
    const asAlice = await connect(alice.token);
    const asBob = await connect(bob.token);

    const channel = await useTool(asAlice, 'create_channel', {
      name: 'mcp-release',
      description: 'Shipping the release over MCP',
      update_after_messages: 20,
    });
    expect(channel).toMatchObject({ name: 'mcp-release', summaryThreshold: 20, createdBy: 'alice', warnings: [] });

    const query = await useTool(asAlice, 'send_message', { channel: 'mcp-release', type: 'QUERY', content: 'Who owns the migration?', topic: 'db' });
    expect(query).toMatchObject({ seq: 1, sender: 'alice', type: 'QUERY', correlationId: expect.any(String), replayed: false });
    const answer = await useTool(asBob, 'send_message', {
      channel: 'mcp-release',
      type: 'RESPONSE',
      content: 'I do; it needs a backfill.',
      correlation_id: query.correlationId,
      in_reply_to: query.seq,
      topic: 'db',
    });
    expect(answer).toMatchObject({ seq: 2, sender: 'bob', correlationId: query.correlationId, inReplyTo: 1 });
    for (let i = 3; i <= 25; i++) {
      const speaker = i % 2 === 0 ? asBob : asAlice;
      const sent = await useTool(speaker, 'send_message', { channel: 'mcp-release', content: `step ${i} of the release is done` });
      expect(sent.seq).toBe(i);
    }

    const triggered = await useTool(asAlice, 'trigger_channel_summary_update', { channel: 'mcp-release' });
    expect(triggered).toMatchObject({ channel: 'mcp-release', pending: expect.any(Number) });
    const summary = await waitFor(async () => {
      const s = await useTool(asBob, 'get_channel_summary', { channel: 'mcp-release' });
      return s.coversThroughSeq === 25 ? s : null;
    }, 'the summary to cover all 25 messages');
    expect(summary.version).toBeGreaterThanOrEqual(1);
    expect(summary.text).toMatch(/alice/);
    expect(summary.text.trim().length).toBeGreaterThan(0);
    expect(summary.pending).toBe(0);

    const page = await useTool(asBob, 'check_messages', { channel: 'mcp-release', after_seq: 20, limit: 3 });
    expect(page.messages.map((m: any) => m.seq)).toEqual([21, 22, 23]);
    expect(page.nextAfterSeq).toBe(23);
    const rest = await useTool(asBob, 'check_messages', { channel: 'mcp-release', after_seq: page.nextAfterSeq });
    expect(rest.messages.map((m: any) => m.seq)).toEqual([24, 25]);

    await useTool(asAlice, 'send_message', { channel: 'mcp-release', type: 'STATUS', content: 'tagging the release now' });
    const context = expectValidProjection(await useTool(asBob, 'get_channel_context', { channel: 'mcp-release', keep_last: 5, max_tokens: 2000 }));
    expect(context).toMatchObject({ channel: 'mcp-release', viewer: 'bob', format: 'anthropic', summaryVersion: summary.version, coversThroughSeq: 25 });
    expect(summaryBlockOf(context)).toContain('[Summary of messages 1–25');
    expect(summaryBlockOf(context)).toContain(summary.text.split('\n')[0]);
    // Only #26 is after the watermark; from alice, it is a user turn, merged after the summary block.
    expect(context.messages).toHaveLength(1);
    expect(context.messages[0].content[1]).toEqual({ type: 'text', text: '[alice · STATUS #26] tagging the release now' });
    expect(context.verbatimFromSeq).toBe(26);
    expect(context.historyTokens).toBeGreaterThan(context.projectedTokens);

    for (const format of ['openai', 'text']) {
      const other = expectValidProjection(await useTool(asBob, 'get_channel_context', { channel: 'mcp-release', format }));
      expect(other.format).toBe(format);
      expect(summaryBlockOf(other)).toBe(summaryBlockOf(context));
    }
  });

  /** A REST validation message as a tool says it: in the tool's argument names. */
  const inArgNames = (message: string, names: Record<string, string>) => Object.entries(names).reduce((m, [field, arg]) => m.replaceAll(field, arg), message);

  describe('errors are tool errors carrying the REST message, in the tool\'s argument names', () => {
    let alice: Client;
    let rest: ApiClient;
    beforeAll(async () => {
      const registered = await useTool(admin, 'register', { name: 'carol' });
      alice = await connect(registered.token);
      rest = new ApiClient(t.baseUrl, registered.token);
      await useTool(alice, 'create_channel', { name: 'mcp-errors' });
    });

    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['an unknown type', { type: 'SHOUT', content: 'x' }, { type: 'SHOUT', content: 'x' }],
      ['FAILURE without content', { type: 'FAILURE' }, { type: 'FAILURE' }],
      ['HANDOFF without target', { type: 'HANDOFF', content: 'yours' }, { type: 'HANDOFF', content: 'yours' }],
      ['in_reply_to of a wrong type', { content: 'x', in_reply_to: 'one' }, { content: 'x', inReplyTo: 'one' }],
      ['a sender other than the caller', { content: 'x', sender: 'mallory' }, { content: 'x', sender: 'mallory' }],
    ];
    it.each(cases)('send_message with %s', async (_, toolArgs, restBody) => {
      const outcome = await callTool(alice, 'send_message', { channel: 'mcp-errors', ...toolArgs });
      const viaRest = await rest.post('/api/v1/channels/mcp-errors/messages', restBody);
      expect(viaRest.status).toBeGreaterThanOrEqual(400);
      const message = inArgNames(viaRest.body.message, { inReplyTo: 'in_reply_to' });
      expect(outcome).toMatchObject({ isError: true, text: message, body: { statusCode: viaRest.status, message } });
      expect((await rest.get('/api/v1/channels/mcp-errors')).body.lastSeq).toBe(0);
    });

    it('a 400 a service raises after validation names the tool\'s arguments too (through_seq, in_reply_to), also for a missing one', async () => {
      await useTool(alice, 'create_channel', { name: 'mcp-service-errors' });
      await useTool(alice, 'send_message', { channel: 'mcp-service-errors', content: 'the only one' });
      const past = await callTool(alice, 'mark_read', { channel: 'mcp-service-errors', through_seq: 99 });
      expect(past).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'through_seq' }] } });
      expect(past.text).toMatch(/^Invalid request: through_seq 99 must be at most/);
      const missing = await callTool(alice, 'mark_read', { channel: 'mcp-service-errors' });
      expect(missing.body.details.map((d: any) => d.field)).toEqual(['through_seq']);
      expect(missing.text).not.toMatch(/throughSeq/);
      const ahead = await callTool(alice, 'send_message', { channel: 'mcp-service-errors', type: 'RESPONSE', content: 'x', in_reply_to: 9999 });
      expect(ahead).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'in_reply_to' }] } });
      expect(ahead.text).toMatch(/^in_reply_to 9999 refers to no earlier message/);
    });

    it('an unknown channel is "not found", as in REST', async () => {
      const outcome = await callTool(alice, 'check_messages', { channel: 'nowhere' });
      const viaRest = await rest.get('/api/v1/channels/nowhere/messages');
      expect(outcome).toMatchObject({ isError: true, text: viaRest.body.message, body: { statusCode: 404 } });
    });

    it('an argument the tool does not declare is refused by name', async () => {
      const outcome = await callTool(alice, 'send_message', { channel: 'mcp-errors', content: 'x', colour: 'red' });
      expect(outcome).toMatchObject({ isError: true, body: { statusCode: 400 } });
      expect(outcome.text).toMatch(/property colour should not exist/);
    });

    it('create_channel names every bad field, as POST /channels does', async () => {
      const outcome = await callTool(alice, 'create_channel', { name: 'Not A Slug!', update_after_messages: 0 });
      const viaRest = await rest.post('/api/v1/channels', { name: 'Not A Slug!', summaryThreshold: 0 });
      expect(outcome.text).toBe(inArgNames(viaRest.body.message, { summaryThreshold: 'update_after_messages' }));
      expect(outcome.body.details).toEqual(
        viaRest.body.details.map((d: { field: string; problems: string[] }) =>
          d.field === 'summaryThreshold' ? { field: 'update_after_messages', problems: d.problems.map((p) => inArgNames(p, { summaryThreshold: 'update_after_messages' })) } : d,
        ),
      );
    });

    it('register needs the admin token', async () => {
      const outcome = await callTool(alice, 'register', { name: 'mallory' });
      expect(outcome).toMatchObject({ isError: true, body: { statusCode: 403 } });
      expect(outcome.text).toMatch(/admin token/);
    });

    it('revoke_agent and rotate_agent_token need the admin token; an unknown agent is not found', async () => {
      for (const tool of ['revoke_agent', 'rotate_agent_token']) {
        expect(await callTool(alice, tool, { name: 'alice' })).toMatchObject({ isError: true, body: { statusCode: 403 } });
        expect(await callTool(admin, tool, { name: 'nobody-here' })).toMatchObject({ isError: true, body: { statusCode: 404 } });
      }
    });

    it('an impossible budget is a 400 naming both arguments\' fields', async () => {
      const outcome = await callTool(alice, 'get_channel_context', { channel: 'mcp-errors', keep_last: 100, max_tokens: 300 });
      expect(outcome).toMatchObject({ isError: true, body: { statusCode: 400 } });
      expect(outcome.text).toMatch(/^max_tokens 300 cannot hold keep_last 100: give max_tokens ≥ \d+ or keep_last ≤ \d+/);
    });
  });

  it('makes a retry with the same idempotency_key return the original message', async () => {
    const first = await useTool(admin, 'send_message', { channel: 'mcp-release', content: 'once only', idempotency_key: 'k-1' });
    const again = await useTool(admin, 'send_message', { channel: 'mcp-release', content: 'once only', idempotency_key: 'k-1' });
    expect(again).toMatchObject({ seq: first.seq, replayed: true });
    expect(first.replayed).toBe(false);
  });

  it('configure_channel_summary and update_channel_summary act through the same services as REST', async () => {
    const configured = await useTool(admin, 'configure_channel_summary', { channel: 'mcp-release', update_after_messages: 50, update_after_seconds: null });
    expect(configured).toMatchObject({ summaryThreshold: 50, updateAfterSeconds: null });
    const before = await useTool(admin, 'get_channel_summary', { channel: 'mcp-release' });
    const updated = await useTool(admin, 'update_channel_summary', { channel: 'mcp-release', text: 'Release is tagged.', expected_version: before.version });
    expect(updated).toMatchObject({ text: 'Release is tagged.', version: before.version + 1, pending: 0 });
    const stale = await callTool(admin, 'update_channel_summary', { channel: 'mcp-release', text: 'late', expected_version: before.version });
    expect(stale).toMatchObject({ isError: true, body: { statusCode: 409 } });
    const listed = await useTool(admin, 'list_channels');
    expect(listed.channels.map((c: any) => c.name)).toEqual(expect.arrayContaining(['mcp-release', 'mcp-errors']));
  });

  describe('transport and auth', () => {
    it('refuses a connection without a token, or with an unknown one', async () => {
      await expect(connectMcp(t.baseUrl)).rejects.toThrow(/401/);
      await expect(connectMcp(t.baseUrl, 'qh_not-a-token')).rejects.toThrow(/401/);
    });

    it('is stateless: a bare tools/call needs no session or initialisation', async () => {
      const res = await fetch(`${t.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_channels', arguments: {} } }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const body: any = await res.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 7 });
      expect(body.result.structuredContent.channels.map((c: any) => c.name)).toContain('mcp-release');
    });

    it('answers a client\'s malformed request in JSON-RPC: bad JSON -32700 (HTTP 400), bad params -32602 naming each field, an unknown method -32601', async () => {
      const post = async (body: string) => {
        const res = await fetch(`${t.baseUrl}/mcp`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body,
        });
        return { status: res.status, body: (await res.json()) as any };
      };
      const broken = await post('{"jsonrpc":"2.0","id":1,');
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: Body is not valid JSON/) } });

      const empty = await post('');
      expect(empty).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is empty; POST a JSON-RPC message' } } });
      const call = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: [1] } }));
      expect(call.status).toBe(200);
      expect(call.body).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32602 } });
      expect(call.body.error.message).toMatch(/^Invalid params: params\.name: .*string.*; params\.arguments: .*record/);
      const read = await post(JSON.stringify({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: {} }));
      expect(read.body).toMatchObject({ id: 'r', error: { code: -32602, message: expect.stringContaining('params.uri') } });
      const unknown = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'prompts/get', params: {} }));
      expect(unknown.body).toMatchObject({ id: 4, error: { code: -32601 } });
      // Well-formed calls are untouched by the check.
      const fine = await post(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'list_channels', arguments: {} } }));
      expect(Array.isArray(fine.body.result.structuredContent.channels)).toBe(true);
    });

    it('answers GET and DELETE with 405 in the JSON-RPC error shape', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${t.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
        expect(res.status).toBe(405);
        expect(res.headers.get('allow')).toBe('POST');
        expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/not allowed/i) }, id: null });
      }
    });
  });
});
