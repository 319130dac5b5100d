import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

/**
 * One rule for every integer argument of every tool: a JSON integer, or a string of decimal digits
 * ("5") converted to it; anything else ("5.0", " 5", "1e3", "abc", "1.5") is refused naming the argument.
 */
describe('MCP: integer arguments follow one rule in every tool', () => {
  let t: TestApp;
  let admin: Client;
  let alice: Client;
  let correlationId: string;
  const CHANNEL = 'arg-types';
  /** No message is posted here, so its summary stays at version 0 until the test overrides it. */
  const SUMMARY_CHANNEL = 'arg-types-summary';

  beforeAll(async () => {
    t = await startTestApp('mcp-arg-types');
    admin = await connectMcp(t.baseUrl, TEST_ADMIN_TOKEN);
    const registered = await useTool(admin, 'register', { name: 'alice' });
    alice = await connectMcp(t.baseUrl, registered.token);
    await useTool(alice, 'create_channel', { name: CHANNEL });
    await useTool(alice, 'create_channel', { name: SUMMARY_CHANNEL });
    const query = await useTool(alice, 'send_message', { channel: CHANNEL, type: 'QUERY', content: 'Who owns the migration?' });
    correlationId = query.correlationId;
    for (const content of ['two', 'three', 'four']) await useTool(alice, 'send_message', { channel: CHANNEL, content });
  });
  afterAll(async () => {
    await Promise.all([admin, alice].filter(Boolean).map((c) => c.close()));
    await t?.close();
  });

  let fresh = 0;
  /** Arguments a call of the tool needs besides the integer one under test (a fresh channel name for create_channel). */
  const base: Record<string, () => Record<string, unknown>> = {
    create_channel: () => ({ name: `arg-types-${++fresh}` }),
    send_message: () => ({ channel: CHANNEL, type: 'RESPONSE', content: 'an answer' }),
    check_messages: () => ({ channel: CHANNEL }),
    wait_for_messages: () => ({ channel: CHANNEL, timeout_s: 0 }),
    mark_read: () => ({ channel: CHANNEL }),
    configure_channel_summary: () => ({ channel: CHANNEL }),
    update_channel_summary: () => ({ channel: SUMMARY_CHANNEL, text: 'A summary by hand.' }),
    get_channel_context: () => ({ channel: CHANNEL }),
    check_inbox: () => ({}),
    list_threads: () => ({ channel: CHANNEL }),
    get_thread: () => ({ channel: CHANNEL, correlation_id: correlationId }),
    search_messages: () => ({ query: 'bob' }),
  };

  /** Every integer argument of every tool, with a value it accepts. */
  const cases: [tool: string, arg: string, value: number][] = [
    ['create_channel', 'update_after_messages', 5],
    ['create_channel', 'update_after_tokens', 500],
    ['create_channel', 'update_after_seconds', 60],
    ['send_message', 'in_reply_to', 1],
    ['check_messages', 'after_seq', 2],
    ['check_messages', 'limit', 2],
    ['check_messages', 'before_seq', 3],
    ['check_messages', 'tail', 2],
    ['wait_for_messages', 'after_seq', 0],
    ['wait_for_messages', 'limit', 2],
    ['mark_read', 'through_seq', 3],
    ['configure_channel_summary', 'update_after_messages', 5],
    ['configure_channel_summary', 'update_after_tokens', 500],
    ['configure_channel_summary', 'update_after_seconds', 60],
    ['update_channel_summary', 'expected_version', 0],
    ['get_channel_context', 'keep_last', 2],
    ['get_channel_context', 'max_tokens', 4000],
    ['check_inbox', 'limit', 5],
    ['list_threads', 'after_seq', 0],
    ['list_threads', 'limit', 5],
    ['get_thread', 'after_seq', 0],
    ['get_thread', 'limit', 5],
    ['search_messages', 'limit', 5],
  ];

  it('the cases below cover every argument tools/list advertises as an integer', async () => {
    const { tools } = await admin.listTools();
    const advertised = tools.flatMap((tool) =>
      Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { type?: string | string[] }>)
        .filter(([, schema]) => schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer')))
        .map(([arg]) => `${tool.name}.${arg}`),
    );
    expect(cases.map(([tool, arg]) => `${tool}.${arg}`).sort()).toEqual(advertised.sort());
  });

  it.each(cases)('%s accepts %s as a string of digits, as its number', async (tool, arg, value) => {
    const outcome = await callTool(alice, tool, { ...base[tool](), [arg]: String(value) });
    expect({ isError: outcome.isError, text: outcome.isError ? outcome.text : '' }).toEqual({ isError: false, text: '' });
  });

  it('a converted string acts as the number: the stored value is the integer', async () => {
    const created = await useTool(alice, 'create_channel', { name: 'arg-types-stored', update_after_messages: '7', update_after_seconds: '90', update_after_tokens: '800' });
    expect(created).toMatchObject({ summaryThreshold: 7, updateAfterSeconds: 90, summaryThresholdTokens: 800 });
    const configured = await useTool(alice, 'configure_channel_summary', { channel: 'arg-types-stored', update_after_messages: '12' });
    expect(configured.summaryThreshold).toBe(12);
    const reply = await useTool(alice, 'send_message', { channel: CHANNEL, type: 'RESPONSE', content: 'It is Bob.', in_reply_to: '1' });
    expect(reply).toMatchObject({ inReplyTo: 1, correlationId });
    const marked = await useTool(alice, 'mark_read', { channel: CHANNEL, through_seq: '3' });
    expect(marked).toMatchObject({ readThroughSeq: 3 });
    const page = await useTool(alice, 'check_messages', { channel: CHANNEL, after_seq: '1', limit: '2' });
    expect(page.messages.map((m: any) => m.seq)).toEqual([2, 3]);
  });

  it('update_channel_summary with expected_version "0" applies once, then is stale like the number', async () => {
    await useTool(alice, 'create_channel', { name: 'arg-types-override' });
    const updated = await useTool(alice, 'update_channel_summary', { channel: 'arg-types-override', text: 'By hand.', expected_version: '0' });
    expect(updated.version).toBe(1);
    const stale = await callTool(alice, 'update_channel_summary', { channel: 'arg-types-override', text: 'Late.', expected_version: '0' });
    expect(stale).toMatchObject({ isError: true, body: { statusCode: 409 } });
  });

  const notIntegers = ['5.0', ' 5', '5 ', '1e3', '0x10', '+5', 'abc', '1.5', ''];
  it.each(cases)('%s refuses %s as any other string, naming the argument', async (tool, arg) => {
    for (const bad of notIntegers) {
      const outcome = await callTool(alice, tool, { ...base[tool](), [arg]: bad });
      expect({ bad, isError: outcome.isError, status: outcome.body?.statusCode }).toEqual({ bad, isError: true, status: 400 });
      expect({ bad, fields: outcome.body.details.map((d: any) => d.field) }).toEqual({ bad, fields: [arg] });
      expect(outcome.text).toMatch(new RegExp(`^Invalid request: ${arg} `));
    }
  });

  it('a numeric string still gets the range checks of the number', async () => {
    const zero = await callTool(alice, 'mark_read', { channel: CHANNEL, through_seq: '-1' });
    expect(zero).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'through_seq' }] } });
    const low = await callTool(alice, 'create_channel', { name: 'arg-types-low', update_after_messages: '0' });
    expect(low).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'update_after_messages' }] } });
    const asNumber = await callTool(alice, 'create_channel', { name: 'arg-types-low', update_after_messages: 0 });
    expect(low.text).toBe(asNumber.text);
    const ahead = await callTool(alice, 'send_message', { channel: CHANNEL, type: 'RESPONSE', content: 'x', in_reply_to: '9999' });
    expect(ahead).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'in_reply_to' }] } });
  });

  describe('idempotency_key is refused in its own name, with details', () => {
    it.each([
      ['empty', ''],
      ['too long', 'k'.repeat(201)],
    ])('%s', async (_, key) => {
      const outcome = await callTool(alice, 'send_message', { channel: CHANNEL, content: 'keyed', idempotency_key: key });
      expect(outcome).toMatchObject({
        isError: true,
        text: 'Invalid request: idempotency_key must be 1-200 characters',
        body: { statusCode: 400, details: [{ field: 'idempotency_key', problems: ['idempotency_key must be 1-200 characters'] }] },
      });
      expect(outcome.text).not.toMatch(/Idempotency-Key/);
    });

    it('a key of 200 characters is accepted', async () => {
      const sent = await useTool(alice, 'send_message', { channel: CHANNEL, content: 'keyed', idempotency_key: 'k'.repeat(200) });
      expect(sent.replayed).toBe(false);
    });
  });
});
