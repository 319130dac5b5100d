import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ApiClient } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { strictSchemaProblems, toolListCost } from './support/strict-tool-schema';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

/** Issue 28 item 4: what an agent's MCP client reads (tools/list, JSON-RPC errors) is portable and exact. */
const ADMIN_TOOLS = ['register', 'revoke_agent', 'rotate_agent_token'];
/** An agent's tools/list must cost less than this, counted both ways (characters ÷ 4, the project's estimate). */
const TOOL_LIST_TOKEN_BUDGET = 2_400;

describe('MCP contract: portable tool schemas, the admin\'s tools, tools/list size, JSON-RPC envelope errors', () => {
  let t: TestApp;
  let admin: Client;
  let agent: Client;
  let rest: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('mcp-contract');
    admin = await connectMcp(t.baseUrl, TEST_ADMIN_TOKEN);
    const registered = await useTool(admin, 'register', { name: 'strict-agent' });
    agent = await connectMcp(t.baseUrl, registered.token);
    rest = new ApiClient(t.baseUrl, registered.token);
  });
  afterAll(async () => {
    await Promise.all([admin, agent].filter(Boolean).map((c) => c.close()));
    await t?.close();
  });

  describe('tool input schemas fit the strict function-calling dialect', () => {
    it('every tool, whatever it is, as the admin lists them (all of them)', async () => {
      const { tools } = await admin.listTools();
      expect(tools.length).toBeGreaterThan(ADMIN_TOOLS.length);
      const problems = tools.flatMap((tool) => strictSchemaProblems(tool.inputSchema, tool.name));
      expect(problems).toEqual([]);
      for (const tool of tools) {
        expect({ tool: tool.name, description: typeof tool.description }).toEqual({ tool: tool.name, description: 'string' });
        expect(Object.keys(tool).sort()).toEqual(expect.arrayContaining(['description', 'inputSchema', 'name']));
      }
    });

    it('the check fails on each defect the schemas had (so the test above can fail)', () => {
      const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, additionalProperties: false, ...extra });
      const defects: [string, unknown][] = [
        ['an open object', { type: 'object', properties: {}, additionalProperties: {} }],
        ['a repeated $schema', closed({}, { $schema: 'http://json-schema.org/draft-07/schema#' })],
        ['a type union', closed({ type: { type: ['string', 'array'] } })],
        ['a nullable integer', closed({ after: { type: ['integer', 'null'] } })],
        ['an array without items', closed({ members: { type: 'array' } })],
        ['anyOf with null', closed({ after: { anyOf: [{ type: 'integer' }, { type: 'null' }] } })],
        ['a free-form object', closed({ metadata: { type: 'object' } })],
        ['an open nested object', closed({ list: { type: 'array', items: { type: 'object', properties: {} } } })],
        ['required naming no property', closed({}, { required: ['channel'] })],
      ];
      for (const [what, schema] of defects) expect({ what, found: strictSchemaProblems(schema, 'tool').length > 0 }).toEqual({ what, found: true });
    });

    it('a list argument is an array of strings (check_messages and wait_for_messages type)', async () => {
      const { tools } = await agent.listTools();
      for (const name of ['check_messages', 'wait_for_messages']) {
        const type = (tools.find((tool) => tool.name === name)!.inputSchema.properties as Record<string, any>).type;
        expect(type).toEqual({ type: 'array', items: { type: 'string' } });
      }
    });
  });

  describe('the admin\'s tools', () => {
    it('are listed to the admin only, and refused to anyone else', async () => {
      const asAgent = (await agent.listTools()).tools.map((tool) => tool.name);
      const asAdmin = (await admin.listTools()).tools.map((tool) => tool.name);
      expect(asAdmin).toEqual(expect.arrayContaining(ADMIN_TOOLS));
      expect(asAgent.filter((name) => ADMIN_TOOLS.includes(name))).toEqual([]);
      expect(asAdmin.filter((name) => !ADMIN_TOOLS.includes(name)).sort()).toEqual([...asAgent].sort());
      for (const tool of ADMIN_TOOLS) {
        expect(await callTool(agent, tool, { name: 'strict-agent' })).toMatchObject({ isError: true, body: { statusCode: 403 } });
      }
    });
  });

  it(`an agent's tools/list costs under ${TOOL_LIST_TOKEN_BUDGET} tokens, counted as characters ÷ 4 and by the project's estimate`, async () => {
    const cost = toolListCost((await agent.listTools()).tools);
    process.stdout.write(`tools/list for an agent: ${JSON.stringify(cost)}\n`);
    expect(cost.charsDiv4).toBeLessThan(TOOL_LIST_TOKEN_BUDGET);
    expect(cost.estimateTokens).toBeLessThan(TOOL_LIST_TOKEN_BUDGET);
  });

  describe('arguments a strict schema can express do what the old ones did', () => {
    beforeAll(async () => {
      await useTool(agent, 'create_channel', { name: 'strict', update_after_tokens: 0, update_after_seconds: 0 });
      await useTool(agent, 'send_message', { channel: 'strict', type: 'QUERY', content: 'Who ships?' });
      await useTool(agent, 'send_message', { channel: 'strict', type: 'STATUS', content: 'building', metadata: '{"build":42}' });
    });

    it('type filters take an array (a comma list still works)', async () => {
      for (const type of [['QUERY'], 'QUERY']) {
        const page = await useTool(agent, 'check_messages', { channel: 'strict', type });
        expect(page.messages.map((m: any) => m.type)).toEqual(['QUERY']);
      }
    });

    it('metadata is a JSON object written as text (an object still works); text that is not JSON is refused naming it', async () => {
      const stored = (await rest.get('/api/v1/channels/strict/messages?afterSeq=1')).body[0];
      expect(stored.metadata).toEqual({ build: 42 });
      const asObject = await useTool(agent, 'send_message', { channel: 'strict', content: 'x', metadata: { build: 43 } });
      expect(asObject.metadata).toEqual({ build: 43 });
      const bad = await callTool(agent, 'send_message', { channel: 'strict', content: 'x', metadata: '{build' });
      expect(bad).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'metadata' }] } });
      const notObject = await callTool(agent, 'send_message', { channel: 'strict', content: 'x', metadata: '[1]' });
      expect(notObject).toMatchObject({ isError: true, body: { statusCode: 400 } });
      expect(notObject.text).toMatch(/metadata/);
      expect((await rest.get('/api/v1/channels/strict')).body.lastSeq).toBe(3);
    });

    it('update_after_tokens and update_after_seconds 0 turn the trigger off (null needs no nullable type)', async () => {
      const created = (await rest.get('/api/v1/channels/strict')).body;
      expect(created).toMatchObject({ summaryThresholdTokens: null, updateAfterSeconds: null });
      const on = await useTool(agent, 'configure_channel_summary', { channel: 'strict', update_after_tokens: 500, update_after_seconds: 60 });
      expect(on).toMatchObject({ summaryThresholdTokens: 500, updateAfterSeconds: 60 });
      const off = await useTool(agent, 'configure_channel_summary', { channel: 'strict', update_after_tokens: 0, update_after_seconds: '0' });
      expect(off).toMatchObject({ summaryThresholdTokens: null, updateAfterSeconds: null });
    });

    it('summary_threshold, the synonym of update_after_messages, is gone: refused by name', async () => {
      const outcome = await callTool(agent, 'create_channel', { name: 'strict-old', summary_threshold: 5 });
      expect(outcome).toMatchObject({ isError: true, body: { statusCode: 400 } });
      expect(outcome.text).toMatch(/property summary_threshold should not exist/);
    });
  });

  describe('JSON-RPC 2.0 envelope errors', () => {
    const post = async (body: string) => {
      const res = await fetch(`${t.baseUrl}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body,
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : JSON.parse(text) };
    };

    it('a message without "jsonrpc":"2.0" is -32600 Invalid Request, not a parse error, with its id', async () => {
      for (const [message, id] of [
        [{ id: 1, method: 'tools/list' }, 1],
        [{ jsonrpc: '1.0', id: 'a', method: 'tools/list' }, 'a'],
      ] as const) {
        const answer = await post(JSON.stringify(message));
        expect(answer).toEqual({ status: 400, body: { jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } } });
      }
      for (const body of ['42', '"tools/list"', JSON.stringify({ jsonrpc: '2.0', id: 2, method: 7 })]) {
        const answer = await post(body);
        expect({ body, status: answer.status, code: answer.body.error.code }).toEqual({ body, status: 400, code: -32600 });
      }
    });

    it('an empty batch is one Invalid Request error (not 202)', async () => {
      expect(await post('[]')).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch' } } });
    });

    it('a batch with invalid elements answers one error per invalid element and runs nothing', async () => {
      const answer = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_channel', arguments: { name: 'never-made' } } }, { id: 2, method: 'ping' }, 5]));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual([
        { jsonrpc: '2.0', id: 2, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' } },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a JSON-RPC message is an object' } },
      ]);
      expect((await rest.get('/api/v1/channels/never-made')).status).toBe(404);
    });

    it('a valid batch and a notification are still served', async () => {
      const batch = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }]));
      expect(batch.status).toBe(200);
      expect(batch.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: 1, result: {} }), expect.objectContaining({ id: 2, result: {} })]));
      expect((await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    });

    it('errors carry the "MCP error <code>:" prefix once, in the official client', async () => {
      const wire = await post(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }));
      expect(wire.body).toEqual({ jsonrpc: '2.0', id: 9, error: { code: -32602, message: 'Unknown tool: no_such_tool' } });
      const unknownTool = await agent.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: Error) => e);
      expect(unknownTool).toMatchObject({ code: -32602, message: 'MCP error -32602: Unknown tool: no_such_tool' });
      const missing = await agent.readResource({ uri: 'qhorus://channels/no-such/summary' }).catch((e: Error) => e);
      expect(missing).toMatchObject({ code: -32002, message: expect.stringMatching(/^MCP error -32002: Channel 'no-such' not found/) });
      const unknownUri = await agent.readResource({ uri: 'qhorus://elsewhere' }).catch((e: Error) => e);
      expect((unknownUri as Error).message).toMatch(/^MCP error -32602: (?!MCP error)/);
    });
  });
});
