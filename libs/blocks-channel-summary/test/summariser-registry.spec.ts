import Anthropic from '@anthropic-ai/sdk';
import { Message, MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import {
  BUILT_IN_SUMMARISER_NAMES,
  buildSummariserRegistry,
  ChannelSummariser,
  createAnthropicClient,
  createModelClient,
  DEFAULT_TIERED_T1,
  DEFAULT_TIERED_T2,
  HeuristicMessageSummariser,
  LLM_UNAVAILABLE_REASON,
  SummariserConfigError,
  UnknownSummariserError,
} from '@qhorus/blocks-channel-summary';
import { ANNOTATION_TIER_FALLBACK, AnthropicModelClient, ContentSummariser, LLM_MAX_RETRIES, OpenAiModelClient, VerbatimContentSummariser } from '@qhorus/blocks-summarisation';
import { message } from './conversation-generator';

const batch = (n: number) => Array.from({ length: n }, (_, i) => message(i + 1, { type: MessageType.STATUS, sender: `a${i % 3}` }));

class Echo implements ContentSummariser<Message> {
  async summarise(items: readonly Message[]): Promise<SummaryResult> {
    return summaryResult(`echo ${items.length}`, {});
  }
}

/** Stands in for the SDK client: answers every request with a fixed summary. */
function fakeAnthropic(text: string): Anthropic {
  const create = async () => ({ content: [{ type: 'text', text }], stop_reason: 'end_turn', model: 'fake-model' });
  return { messages: { create } } as unknown as Anthropic;
}

describe('buildSummariserRegistry / SummariserRegistry', () => {
  const heuristic = new HeuristicMessageSummariser();

  it('registers the built-ins, then custom strategies', () => {
    const echo = new Echo();
    const registry = buildSummariserRegistry({ strategies: { echo } }, heuristic);
    expect(registry.names()).toEqual([...BUILT_IN_SUMMARISER_NAMES, 'echo']);
    expect(registry.has('echo')).toBe(true);
    expect(registry.has('nope')).toBe(false);
    expect(registry.get('echo')).toBe(echo);
    expect(registry.get('heuristic')).toBe(heuristic);
    expect(registry.get('verbatim')).toBeInstanceOf(VerbatimContentSummariser);
  });

  it('rejects a custom strategy that would shadow a built-in', () => {
    for (const name of BUILT_IN_SUMMARISER_NAMES) {
      expect(() => buildSummariserRegistry({ strategies: { [name]: new Echo() } }, heuristic)).toThrow(SummariserConfigError);
    }
  });

  it('throws UnknownSummariserError listing the known names', () => {
    const registry = buildSummariserRegistry({ strategies: { echo: new Echo() } }, heuristic);
    expect(() => registry.get('nope')).toThrow(UnknownSummariserError);
    expect(() => registry.get('nope')).toThrow("Unknown summariser 'nope'; known summarisers: heuristic, verbatim, llm, tiered, echo");
    expect(() => registry.availability('nope')).toThrow(UnknownSummariserError);
    expect(() => registry.hookFor('nope')).toThrow(UnknownSummariserError);
  });

  it('uses the default strategy for a missing name, and validates it', () => {
    const registry = buildSummariserRegistry({ defaultStrategy: 'verbatim' }, heuristic);
    expect(registry.defaultName).toBe('verbatim');
    expect(registry.get(null)).toBe(registry.get('verbatim'));
    expect(buildSummariserRegistry({}, heuristic).get(undefined)).toBe(heuristic);
    expect(() => buildSummariserRegistry({ defaultStrategy: 'nope' }, heuristic)).toThrow(UnknownSummariserError);
  });

  it('reports llm unavailable without an API key; tiered stays available', () => {
    for (const apiKey of [undefined, null, '', '   ']) {
      const registry = buildSummariserRegistry({ llm: { apiKey, model: 'm', mode: 'EDIT', timeoutMs: 1000 } }, heuristic);
      expect(registry.availability('llm')).toEqual({ available: false, reason: LLM_UNAVAILABLE_REASON });
      expect(registry.availability('tiered')).toEqual({ available: true });
      expect(registry.availability('heuristic')).toEqual({ available: true });
    }
    expect(buildSummariserRegistry({}, heuristic).availability('llm').available).toBe(false);
  });

  it('reports llm available with an API key', () => {
    const registry = buildSummariserRegistry({ llm: { apiKey: 'sk-test', model: 'm', mode: 'APPEND', timeoutMs: 1000 } }, heuristic);
    expect(registry.availability('llm')).toEqual({ available: true });
  });

  it('reports a custom strategy that says available=false, with a generic reason', () => {
    const off = Object.assign(new Echo(), { available: false });
    const registry = buildSummariserRegistry({ strategies: { off } }, heuristic);
    expect(registry.availability('off')).toEqual({ available: false, reason: 'summariser is unavailable' });
  });

  it('hands out one ChannelSummariser hook per strategy', () => {
    const registry = buildSummariserRegistry({}, heuristic);
    const hook = registry.hookFor('verbatim');
    expect(hook).toBeInstanceOf(ChannelSummariser);
    expect(registry.hookFor('verbatim')).toBe(hook);
    expect(registry.hookFor(null)).toBe(registry.hookFor('heuristic'));
  });

  it('tiered: verbatim for small batches, heuristic for medium, LLM for large', async () => {
    const registry = buildSummariserRegistry(
      { llm: { apiKey: 'sk-test', model: 'm', mode: 'EDIT', timeoutMs: 1000 } },
      heuristic,
      () => fakeAnthropic('LLM summary'),
    );
    const tiered = registry.get('tiered');
    expect((await tiered.summarise(batch(DEFAULT_TIERED_T1), null)).annotations.tier).toBe('verbatim');
    expect((await tiered.summarise(batch(DEFAULT_TIERED_T2), null)).annotations.tier).toBe('grouped');
    const large = await tiered.summarise(batch(DEFAULT_TIERED_T2 + 1), null);
    expect(large.annotations.tier).toBe('synthesised');
    expect(large.text).toBe('LLM summary');
  });

  it('tiered without a key falls back to the heuristic for a large batch, saying so', async () => {
    const tiered = buildSummariserRegistry({}, heuristic).get('tiered');
    const result = await tiered.summarise(batch(30), summaryResult('', { foreign: 'x' }));
    expect(result.annotations.tier).toBe('grouped');
    expect(result.annotations[ANNOTATION_TIER_FALLBACK]).toMatch(/^large->medium: .*ANTHROPIC_API_KEY/);
    expect(result.annotations.foreign).toBe('x');
    expect(result.annotations.itemCount).toBe('30');
  });

  it('uses custom tier thresholds and rejects invalid ones', async () => {
    const tiered = buildSummariserRegistry({ tiered: { t1: 1, t2: 2 } }, heuristic).get('tiered');
    expect((await tiered.summarise(batch(2), null)).annotations.tier).toBe('grouped');
    expect(() => buildSummariserRegistry({ tiered: { t1: 0, t2: 5 } }, heuristic)).toThrow(RangeError);
    expect(() => buildSummariserRegistry({ tiered: { t1: 5, t2: 4 } }, heuristic)).toThrow(RangeError);
  });

  it('rejects an unknown llm mode', () => {
    const llm = { apiKey: null, model: 'm', mode: 'REWRITE' as 'EDIT', timeoutMs: 1000 };
    expect(() => buildSummariserRegistry({ llm }, heuristic)).toThrow(SummariserConfigError);
  });
});

describe('createModelClient', () => {
  it('returns null without a key, whatever the provider', () => {
    expect(createModelClient(undefined)).toBeNull();
    expect(createModelClient({ provider: 'openai', apiKey: ' ', timeoutMs: 1000 })).toBeNull();
  });

  it('builds the adapter of the configured provider (Anthropic by default)', () => {
    expect(createModelClient({ apiKey: 'k', timeoutMs: 1000 })).toBeInstanceOf(AnthropicModelClient);
    expect(createModelClient({ provider: 'anthropic', apiKey: 'k', timeoutMs: 1000 })?.provider).toBe('anthropic');
    const openai = createModelClient({ provider: 'openai', apiKey: 'k', baseURL: 'http://127.0.0.1:11434/v1', timeoutMs: 1000 });
    expect(openai).toBeInstanceOf(OpenAiModelClient);
    expect(openai?.provider).toBe('openai');
  });

  it('without a key, the llm strategy is unavailable naming the key settings of the chosen provider', async () => {
    const registry = buildSummariserRegistry({ llm: { provider: 'openai', apiKey: null, model: 'm', mode: 'EDIT', timeoutMs: 1000 } }, new HeuristicMessageSummariser());
    expect(registry.availability('llm')).toEqual({ available: false, reason: 'no API key is set for the openai provider (QHORUS_LLM_API_KEY or OPENAI_API_KEY)' });
    await expect(registry.get('llm').summarise(batch(1))).rejects.toThrow('LLM summariser unavailable: no API key is set for the openai provider (QHORUS_LLM_API_KEY or OPENAI_API_KEY)');
  });
});

describe('createAnthropicClient', () => {
  it('returns null without a key', () => {
    expect(createAnthropicClient(undefined)).toBeNull();
    expect(createAnthropicClient({ apiKey: null, timeoutMs: 1000 })).toBeNull();
    expect(createAnthropicClient({ apiKey: '  ', timeoutMs: 1000 })).toBeNull();
  });

  it('builds a client without SDK retries (the job queue owns retries)', () => {
    const client = createAnthropicClient({ apiKey: 'sk-test', baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 1234 });
    expect(client).toBeInstanceOf(Anthropic);
    expect(client!.maxRetries).toBe(LLM_MAX_RETRIES);
    expect(LLM_MAX_RETRIES).toBe(0);
    expect(client!.baseURL).toBe('http://127.0.0.1:9/v1');
    expect(client!.timeout).toBe(1234);
  });
});

describe('the registry’s hooks', () => {
  it('every strategy’s hook runs the state tracker and holds the text to textMaxChars, built-in or custom', async () => {
    const registry = buildSummariserRegistry({ strategies: { echo: new Echo() }, textMaxChars: 300 }, new HeuristicMessageSummariser(), () => fakeAnthropic('Model prose.\n'.repeat(60)));
    const messages = [
      message(1, { type: MessageType.QUERY, sender: 'ann', correlationId: 'q1', content: 'long '.repeat(40) }),
      message(2, { type: MessageType.COMMAND, sender: 'ben', correlationId: 'c1', content: 'long '.repeat(40) }),
      message(3, { type: MessageType.RESPONSE, sender: 'cid', correlationId: 'q1', content: 'long '.repeat(40) }),
    ];
    for (const name of [...BUILT_IN_SUMMARISER_NAMES, 'echo']) {
      let previous: SummaryResult | null = null;
      for (let step = 0; step < 4; step++) {
        const batchOf = messages.map((m) => ({ ...m, seq: m.seq + step * 3, correlationId: `${m.correlationId}-${step}` }));
        previous = await registry.hookFor(name).update({ channel: { name: 'x', description: null }, previous, coversThroughSeq: step * 3, messages: batchOf });
        expect(previous.text.length).toBeLessThanOrEqual(300);
      }
      const open = JSON.parse(previous!.annotations.openThreads).map((t: { correlationId: string }) => t.correlationId);
      expect({ name, open }).toEqual({ name, open: ['c1-0', 'c1-1', 'c1-2', 'c1-3'] });
      expect(JSON.parse(previous!.annotations.participants)).toEqual(['ann', 'ben', 'cid']);
    }
  });
});
