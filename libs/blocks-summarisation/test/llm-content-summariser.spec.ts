import Anthropic from '@anthropic-ai/sdk';
import { ModelCallMeter, ModelUsage, summaryResult } from '@qhorus/api';
import {
  LLM_SYSTEM_PROMPTS,
  LlmContentSummariser,
  LlmSummaryMode,
  SummariserUnavailableError,
} from '@qhorus/blocks-summarisation';
import { FakeAnthropic, FakeAnthropicHandler, replyError, replyHang, replyText, startFakeAnthropic } from './fake-anthropic-server';
import { Item, renderItem } from './fixtures';

const MODEL = 'claude-haiku-4-5';
const TIMEOUT_MS = 300;
const batch: Item[] = [
  { sender: 'alice', text: 'QUERY: who owns the deploy?' },
  { sender: 'bob', text: 'RESPONSE: I do.' },
];

describe('LlmContentSummariser (real SDK against a local fake Messages API)', () => {
  let server: FakeAnthropic | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  async function summariserFor(handler: FakeAnthropicHandler, mode = LlmSummaryMode.EDIT, timeoutMs = 5_000) {
    server = await startFakeAnthropic(handler);
    const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL });
    return new LlmContentSummariser<Item>(client, renderItem, mode, { model: MODEL, maxTokens: 256, timeoutMs });
  }

  it('an error answer that echoes the request headers never carries the API key into the error (logs, lastError)', async () => {
    const key = 'sk-ant-api03-this-is-the-secret';
    server = await startFakeAnthropic((req) => replyError(400, `echo ${JSON.stringify(req.headers)}`, 'invalid_request_error'));
    const client = new Anthropic({ apiKey: key, baseURL: server.baseURL, maxRetries: 0 });
    const summariser = new LlmContentSummariser<Item>(client, renderItem, LlmSummaryMode.EDIT, { model: MODEL, maxTokens: 256, timeoutMs: 5_000 });
    const error: Error = await summariser.summarise(batch).then(
      () => { throw new Error('expected a failure'); },
      (e: Error) => e,
    );
    expect(error.message).toMatch(/^LLM summariser request failed \(anthropic, model .*\): HTTP 400 invalid_request_error: echo /);
    expect(error.message).toContain('[redacted]');
    expect(JSON.stringify({ message: error.message, stack: error.stack, cause: error.cause })).not.toContain('this-is-the-secret');
  });

  it('EDIT: sends the edit system prompt, the preamble, the current summary and the items', async () => {
    const summariser = await summariserFor(() => 'Bob owns the deploy.');
    const previous = summaryResult('Alice asked about the deploy.', { foreign: 'kept' });
    const result = await summariser.summarise(batch, previous, { preamble: 'Coordinating the v2 release.' });

    expect(server!.requests).toHaveLength(1);
    const body = server!.requests[0].body;
    expect(server!.requests[0].path).toBe('/v1/messages');
    expect(body.model).toBe(MODEL);
    expect(body.max_tokens).toBe(256);
    expect(body.system).toBe(LLM_SYSTEM_PROMPTS[LlmSummaryMode.EDIT]);
    expect(body.system).toMatch(/Rewrite the summary/);
    expect(body).not.toHaveProperty('temperature');
    expect(body.messages).toEqual([
      {
        role: 'user',
        content:
          'Channel purpose: Coordinating the v2 release.\n\n' +
          'Current summary:\nAlice asked about the deploy.\n\n' +
          'New items (2):\n- alice: QUERY: who owns the deploy?\n- bob: RESPONSE: I do.\n\n' +
          'Length limit: at most 4000 characters.',
      },
    ]);

    expect(result.text).toBe('Bob owns the deploy.');
    expect(result.annotations).toEqual({ foreign: 'kept', tier: 'synthesised', itemCount: '2', provider: 'anthropic', model: MODEL });
  });

  it('sends no "Current summary:" on a first call, nor for an empty previous text', async () => {
    const summariser = await summariserFor(() => 'First summary.');
    await summariser.summarise(batch, null);
    await summariser.summarise(batch, summaryResult('   '));
    for (const request of server!.requests) {
      const content: string = request.body.messages[0].content;
      expect(content).not.toContain('Current summary:');
      expect(content).not.toContain('Channel purpose:');
      expect(content.startsWith('New items (2):')).toBe(true);
    }
  });

  it('APPEND: asks only for an update section and keeps the old text byte-identical as a prefix', async () => {
    const old = 'Line one.\n\n  Indented line with trailing spaces   \nÜnïcödé 你好';
    const summariser = await summariserFor(() => '  Update: Bob owns the deploy.\n', LlmSummaryMode.APPEND);
    const result = await summariser.summarise(batch, summaryResult(old), { preamble: 'Release channel' });

    const body = server!.requests[0].body;
    expect(body.system).toBe(LLM_SYSTEM_PROMPTS[LlmSummaryMode.APPEND]);
    expect(body.system).toMatch(/Write only a short update section/);
    expect(body.system).not.toBe(LLM_SYSTEM_PROMPTS[LlmSummaryMode.EDIT]);
    expect(body.messages[0].content).toContain(`Current summary:\n${old}\n\nNew items (2):`);
    expect(body.messages[0].content.startsWith('Channel purpose: Release channel\n\n')).toBe(true);

    expect(result.text.startsWith(old)).toBe(true);
    expect(result.text.slice(0, old.length)).toBe(old);
    expect(result.text).toBe(`${old}\n\nUpdate: Bob owns the deploy.`);
  });

  it('APPEND on a first call is just the section', async () => {
    const summariser = await summariserFor(() => 'Section.', LlmSummaryMode.APPEND);
    expect((await summariser.summarise(batch, null)).text).toBe('Section.');
  });

  it('sends no SDK retries: one request per failure', async () => {
    const summariser = await summariserFor(() => replyError(500));
    await expect(summariser.summarise(batch, null)).rejects.toThrow();
    expect(server!.requests).toHaveLength(1);
  });

  it('rejects on HTTP 500 with a clear message', async () => {
    const summariser = await summariserFor(() => replyError(500, 'overloaded backend'));
    await expect(summariser.summarise(batch, null)).rejects.toThrow("LLM summariser request failed (anthropic, model claude-haiku-4-5): HTTP 500 api_error: overloaded backend");
  });

  it('rejects when the server is unreachable', async () => {
    const closed = await startFakeAnthropic();
    await closed.close();
    const client = new Anthropic({ apiKey: 'test', baseURL: closed.baseURL });
    const summariser = new LlmContentSummariser<Item>(client, renderItem, LlmSummaryMode.EDIT, { model: MODEL, timeoutMs: 2_000 });
    await expect(summariser.summarise(batch, null)).rejects.toThrow(/LLM summariser request failed/);
  });

  it.each([
    ['empty', ''],
    ['whitespace', ' \n\t '],
  ])('rejects a blank (%s) answer instead of returning an empty summary', async (_, text) => {
    const summariser = await summariserFor(() => replyText(text));
    await expect(summariser.summarise(batch, summaryResult('Old.'))).rejects.toThrow(/blank answer/);
  });

  it('rejects a truncated answer (stop_reason max_tokens)', async () => {
    const summariser = await summariserFor(() => replyText('Half a summ', { stopReason: 'max_tokens' }));
    await expect(summariser.summarise(batch, null)).rejects.toThrow(/stop_reason=max_tokens/);
  });

  it('rejects on timeout when the server never answers', async () => {
    const summariser = await summariserFor(() => replyHang(), LlmSummaryMode.EDIT, TIMEOUT_MS);
    const started = Date.now();
    await expect(summariser.summarise(batch, null)).rejects.toThrow(`LLM summariser timed out after ${TIMEOUT_MS} ms`);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS * 10);
    expect(server!.requests).toHaveLength(1);
  });

  it('records the model the API reports', async () => {
    const summariser = await summariserFor(() => replyText('ok', { model: 'claude-haiku-4-5-20251001' }));
    expect((await summariser.summarise(batch, null)).annotations.model).toBe('claude-haiku-4-5-20251001');
  });

  it('does not call the API for an empty batch', async () => {
    const summariser = await summariserFor(() => 'never');
    const result = await summariser.summarise([], summaryResult('Old.', { foreign: 'x' }));
    expect(result.text).toBe('Old.');
    expect(result.annotations.itemCount).toBe('0');
    expect(result.annotations.foreign).toBe('x');
    expect(server!.requests).toHaveLength(0);
  });

  it('is unavailable without a client and rejects with SummariserUnavailableError', async () => {
    const summariser = new LlmContentSummariser<Item>(null, renderItem, LlmSummaryMode.EDIT, { model: MODEL });
    expect(summariser.available).toBe(false);
    await expect(summariser.summarise(batch, null)).rejects.toBeInstanceOf(SummariserUnavailableError);
  });

  it('is available with a client', () => {
    const client = new Anthropic({ apiKey: 'test', baseURL: 'http://127.0.0.1:1' });
    expect(new LlmContentSummariser<Item>(client, renderItem, LlmSummaryMode.APPEND, { model: MODEL }).available).toBe(true);
  });

  it('validates its options', () => {
    expect(() => new LlmContentSummariser<Item>(null, renderItem, LlmSummaryMode.EDIT, { model: '' })).toThrow(RangeError);
    expect(() => new LlmContentSummariser<Item>(null, renderItem, LlmSummaryMode.EDIT, { model: MODEL, maxTokens: 0 })).toThrow(/maxTokens/);
    expect(() => new LlmContentSummariser<Item>(null, renderItem, LlmSummaryMode.EDIT, { model: MODEL, timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  describe('a model-call meter (the service budget)', () => {
    function meter(refuse = false) {
      const calls: { admitted: string[]; usage: ModelUsage[] } = { admitted: [], usage: [] };
      const m: ModelCallMeter = {
        admit: async (model) => {
          if (refuse) throw new Error('model budget spent');
          calls.admitted.push(model);
        },
        record: async (usage) => {
          calls.usage.push(usage);
        },
      };
      return { m, calls };
    }

    it("is asked before the call and told the answer's usage, as the API reported it", async () => {
      const summariser = await summariserFor(() => 'Bob owns the deploy.');
      const { m, calls } = meter();
      await summariser.summarise(batch, null, { modelCalls: m });
      expect(calls.admitted).toEqual([MODEL]);
      expect(calls.usage).toEqual([{ model: MODEL, inputTokens: 10, outputTokens: 5 }]);
    });

    it('refusing admission makes no call and rejects with its reason', async () => {
      const summariser = await summariserFor(() => 'never asked');
      const { m, calls } = meter(true);
      await expect(summariser.summarise(batch, null, { modelCalls: m })).rejects.toThrow('model budget spent');
      expect(server!.requests).toHaveLength(0);
      expect(calls.usage).toEqual([]);
    });

    it('records the usage of an answer that is then rejected (it was paid for)', async () => {
      const summariser = await summariserFor(() => replyText('cut off', { stopReason: 'max_tokens' }));
      const { m, calls } = meter();
      await expect(summariser.summarise(batch, null, { modelCalls: m })).rejects.toThrow(/stop_reason=max_tokens/);
      expect(calls.usage).toHaveLength(1);
    });
  });
});
