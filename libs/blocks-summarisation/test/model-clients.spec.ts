import Anthropic from '@anthropic-ai/sdk';
import { ModelCallMeter, ModelUsage, summaryResult } from '@qhorus/api';
import {
  AnthropicModelClient,
  LLM_SYSTEM_PROMPTS,
  LlmContentSummariser,
  LlmSummaryMode,
  ModelWarning,
  OpenAiModelClient,
} from '@qhorus/blocks-summarisation';
import OpenAI from 'openai';
import { replyError, replyHang, replyText, startFakeAnthropic } from './fake-anthropic-server';
import { FakeOpenAi, FakeOpenAiHandler, openAiPrompt, startFakeOpenAi } from './fake-openai-server';
import { Item, renderItem } from './fixtures';

const MODEL = 'qwen3:8b';
const TIMEOUT_MS = 300;
const batch: Item[] = [
  { sender: 'alice', text: 'QUERY: who owns the deploy?' },
  { sender: 'bob', text: 'RESPONSE: I do.' },
];

describe('LlmContentSummariser over the OpenAI provider (real openai SDK against a local Chat Completions server)', () => {
  let server: FakeOpenAi | null = null;

  afterEach(async () => {
    await server?.close();
    server = null;
  });

  async function summariserFor(handler: FakeOpenAiHandler, mode = LlmSummaryMode.EDIT, timeoutMs = 5_000, maxChars?: number) {
    server = await startFakeOpenAi(handler);
    const client = new OpenAiModelClient(new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 }));
    return new LlmContentSummariser<Item>(client, renderItem, mode, { model: MODEL, maxTokens: 256, timeoutMs, maxChars });
  }

  it('EDIT: one JSON Chat Completions request — the system prompt, the grounded user turn, max_completion_tokens, no sampling parameters, no stream', async () => {
    const summariser = await summariserFor(() => 'Bob owns the deploy.');
    const previous = summaryResult('Alice asked about the deploy.', { foreign: 'kept' });
    const grounding = [{ title: 'Open requests (1, newest first)', lines: ['#4 QUERY from alice (corr deploy-owner)'] }];
    const result = await summariser.summarise(batch, previous, { preamble: 'Coordinating the v2 release.', grounding });

    expect(server!.requests).toHaveLength(1);
    const { body, headers } = server!.requests[0];
    expect(headers.authorization).toBe('Bearer test');
    expect(body).toEqual({
      model: MODEL,
      max_completion_tokens: 256,
      messages: [
        { role: 'system', content: LLM_SYSTEM_PROMPTS[LlmSummaryMode.EDIT] },
        { role: 'user', content: expect.stringContaining('Current summary:\nAlice asked about the deploy.') },
      ],
    });
    const prompt = openAiPrompt(server!.requests[0]);
    expect(prompt).toContain('Channel purpose: Coordinating the v2 release.');
    expect(prompt).toContain('Open requests (1, newest first):\n- #4 QUERY from alice (corr deploy-owner)');
    expect(prompt).toContain('New items (2):\n- alice: QUERY: who owns the deploy?\n- bob: RESPONSE: I do.');
    expect(result.text).toBe('Bob owns the deploy.');
    expect(result.annotations).toEqual({ foreign: 'kept', tier: 'synthesised', itemCount: '2', provider: 'openai', model: MODEL });
  });

  it('APPEND: asks for a section and keeps the old text as a byte-identical prefix', async () => {
    const old = 'Line one.\n\n  Indented   \nÜnïcödé 你好';
    const summariser = await summariserFor(() => '  Update: Bob owns the deploy.\n', LlmSummaryMode.APPEND);
    const result = await summariser.summarise(batch, summaryResult(old));
    expect(server!.requests[0].body.messages[0]).toEqual({ role: 'system', content: LLM_SYSTEM_PROMPTS[LlmSummaryMode.APPEND] });
    expect(result.text).toBe(`${old}\n\nUpdate: Bob owns the deploy.`);
  });

  it('cuts an answer longer than the cap at a line boundary and flags it', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `Line ${i} of a model that went on.`).join('\n');
    const summariser = await summariserFor(() => long, LlmSummaryMode.EDIT, 5_000, 1_000);
    const result = await summariser.summarise(batch, null);
    expect(result.text.length).toBeLessThanOrEqual(1_000);
    expect(result.annotations.textTruncated).toBe('true');
    expect(openAiPrompt(server!.requests[0])).toContain('Length limit: at most 1000 characters.');
  });

  it('records the model the server reports, and its usage with the meter', async () => {
    const summariser = await summariserFor(() => replyText('ok', { model: 'qwen3:8b-q4_K_M' }));
    const usage: ModelUsage[] = [];
    const meter: ModelCallMeter = { admit: async () => undefined, record: async (u) => void usage.push(u) };
    const result = await summariser.summarise(batch, null, { modelCalls: meter });
    expect(result.annotations.model).toBe('qwen3:8b-q4_K_M');
    expect(usage).toEqual([{ model: 'qwen3:8b-q4_K_M', inputTokens: 10, outputTokens: 5 }]);
  });

  it('a spent budget (the meter refuses) makes no request', async () => {
    const summariser = await summariserFor(() => 'never asked');
    const meter: ModelCallMeter = { admit: async () => Promise.reject(new Error('model budget spent')), record: async () => undefined };
    await expect(summariser.summarise(batch, null, { modelCalls: meter })).rejects.toThrow('model budget spent');
    expect(server!.requests).toHaveLength(0);
  });

  it('rejects an HTTP 500 naming the provider, the status and the server’s message; one request (no SDK retries)', async () => {
    const summariser = await summariserFor(() => replyError(500, 'model not loaded', 'server_error'));
    await expect(summariser.summarise(batch, null)).rejects.toThrow(`LLM summariser request failed (openai, model ${MODEL}): HTTP 500 server_error: model not loaded`);
    expect(server!.requests).toHaveLength(1);
  });

  it.each([
    ['empty', ''],
    ['whitespace', ' \n\t '],
  ])('rejects a blank (%s) answer', async (_, text) => {
    const summariser = await summariserFor(() => replyText(text));
    await expect(summariser.summarise(batch, summaryResult('Old.'))).rejects.toThrow(/blank answer/);
  });

  it('rejects an answer cut by the token limit (finish_reason=length), after recording its usage', async () => {
    const summariser = await summariserFor(() => replyText('Half a summ', { stopReason: 'length' }));
    const usage: ModelUsage[] = [];
    const meter: ModelCallMeter = { admit: async () => undefined, record: async (u) => void usage.push(u) };
    await expect(summariser.summarise(batch, null, { modelCalls: meter })).rejects.toThrow(/finish_reason=length/);
    expect(usage).toHaveLength(1);
  });

  // Compatible servers word a finished answer their own way: TGI before 2.2 `eos_token`, Together `eos`, some none at all.
  it.each([['eos'], ['eos_token'], [null]])('accepts an answer that finished with finish_reason=%p as finished', async (finish) => {
    const summariser = await summariserFor(() => replyText('Bob owns the deploy.', { stopReason: finish }));
    await expect(summariser.summarise(batch, null)).resolves.toMatchObject({ text: 'Bob owns the deploy.' });
  });

  it.each([['content_filter'], ['tool_calls'], ['function_call'], ['abort']])('rejects an answer that stopped with finish_reason=%s: not a summary', async (finish) => {
    const summariser = await summariserFor(() => replyText('Half a summ', { stopReason: finish }));
    await expect(summariser.summarise(batch, null)).rejects.toThrow(`LLM summariser answer rejected: finish_reason=${finish} (openai, model ${MODEL}`);
  });

  it('aborts a call that hangs past the timeout: the server sees the connection close', async () => {
    const summariser = await summariserFor(() => replyHang(), LlmSummaryMode.EDIT, TIMEOUT_MS);
    const started = Date.now();
    await expect(summariser.summarise(batch, null)).rejects.toThrow(`LLM summariser timed out after ${TIMEOUT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 10);
    // The request was cut off from our side, not left open until the server gives up.
    await expect(settlesWithin(server!.requests[0].closed, 2_000)).resolves.toBe(true);
  });

  it('never carries the API key of an echoing server into the error', async () => {
    const key = 'sk-proj-this-is-the-secret-key-0123456789';
    server = await startFakeOpenAi((req) => replyError(401, `echo ${JSON.stringify(req.headers)}`, 'invalid_request_error'));
    const summariser = new LlmContentSummariser<Item>(new OpenAiModelClient(new OpenAI({ apiKey: key, baseURL: server.baseURL, maxRetries: 0 })), renderItem, LlmSummaryMode.EDIT, { model: MODEL });
    const error: Error = await summariser.summarise(batch).then(
      () => { throw new Error('expected a failure'); },
      (e: Error) => e,
    );
    expect(error.message).toMatch(/^LLM summariser request failed \(openai, model .*\): HTTP 401 invalid_request_error: echo /);
    expect(JSON.stringify({ message: error.message, stack: error.stack, cause: error.cause })).not.toContain('this-is-the-secret');
  });
});

/** Whether `promise` settles within `ms` (its timer cleared either way). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('AnthropicModelClient', () => {
  it("reports the SDK's deprecation notice once per model through the sink, never on the console", async () => {
    const server = await startFakeAnthropic(() => 'ok');
    const warnings: ModelWarning[] = [];
    const printed = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const client = new AnthropicModelClient(new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 }), (w) => warnings.push(w));
      const deprecated = new LlmContentSummariser<Item>(client, renderItem, LlmSummaryMode.EDIT, { model: 'claude-sonnet-4-5' });
      const current = new LlmContentSummariser<Item>(client, renderItem, LlmSummaryMode.EDIT, { model: 'claude-haiku-4-5' });
      for (let i = 0; i < 3; i++) await deprecated.summarise(batch, null);
      await current.summarise(batch, null);
      expect(warnings).toEqual([{ provider: 'anthropic', model: 'claude-sonnet-4-5', message: expect.stringMatching(/^The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on /) }]);
      expect(printed).not.toHaveBeenCalled();
      expect(server.requests).toHaveLength(4);
    } finally {
      printed.mockRestore();
      await server.close();
    }
  });
});
