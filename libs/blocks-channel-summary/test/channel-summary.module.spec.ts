import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Message, MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import {
  CHANNEL_SUMMARY_OPTIONS,
  ChannelSummaryModule,
  CONTENT_SUMMARISER,
  HeuristicMessageSummariser,
  LLM_UNAVAILABLE_REASON,
  SummariserConfigError,
  SummariserRegistry,
  UnknownSummariserError,
} from '@qhorus/blocks-channel-summary';
import { ANNOTATION_TIER_FALLBACK, ContentSummariser } from '@qhorus/blocks-summarisation';
import { message } from './conversation-generator';

const batch = (n: number) => Array.from({ length: n }, (_, i) => message(i + 1, { type: MessageType.STATUS, sender: `a${i % 3}` }));

/** A domain team's own default summariser. */
class DomainSummariser implements ContentSummariser<Message> {
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    return summaryResult(`domain ${items.length}`, { ...(previous?.annotations ?? {}), tier: 'domain' });
  }
}

/** Lives in another module and does not import ChannelSummaryModule: it relies on it being global. */
@Injectable()
class Consumer {
  constructor(readonly registry: SummariserRegistry) {}
}
@Module({ providers: [Consumer], exports: [Consumer] })
class ConsumerModule {}

async function compile(imports: Parameters<typeof Test.createTestingModule>[0]['imports']) {
  return Test.createTestingModule({ imports }).compile();
}

describe('ChannelSummaryModule', () => {
  it('forRoot({}) provides the heuristic as CONTENT_SUMMARISER and as the `heuristic` strategy', async () => {
    const moduleRef = await compile([ChannelSummaryModule.forRoot({})]);
    const summariser = moduleRef.get(CONTENT_SUMMARISER);
    const registry = moduleRef.get(SummariserRegistry);
    expect(summariser).toBeInstanceOf(HeuristicMessageSummariser);
    expect(registry).toBeInstanceOf(SummariserRegistry);
    expect(registry.get('heuristic')).toBe(summariser);
    expect(registry.get()).toBe(summariser);
    expect(registry.names()).toEqual(['heuristic', 'verbatim', 'llm', 'tiered']);
    expect(moduleRef.get(CHANNEL_SUMMARY_OPTIONS)).toEqual({});
  });

  it('is global: another module injects the registry without importing it', async () => {
    const moduleRef = await compile([ChannelSummaryModule.forRoot({}), ConsumerModule]);
    expect(moduleRef.get(Consumer).registry).toBe(moduleRef.get(SummariserRegistry));
  });

  it('overriding CONTENT_SUMMARISER changes `heuristic`, the default and tiered’s medium tier', async () => {
    const domain = new DomainSummariser();
    const moduleRef = await Test.createTestingModule({ imports: [ChannelSummaryModule.forRoot({})] })
      .overrideProvider(CONTENT_SUMMARISER)
      .useValue(domain)
      .compile();
    const registry = moduleRef.get(SummariserRegistry);
    expect(moduleRef.get(CONTENT_SUMMARISER)).toBe(domain);
    expect(registry.get('heuristic')).toBe(domain);
    expect(registry.get()).toBe(domain);
    expect((await registry.get('tiered').summarise(batch(10), null)).text).toBe('domain 10');
    const hooked = await registry.hookFor(null).update({ channel: { name: 'c', description: null }, previous: null, coversThroughSeq: 0, messages: batch(2) });
    expect(hooked.text).toBe('domain 2');
  });

  it('accepts a contentSummariser provider as a module extra (the production override path)', async () => {
    const moduleRef = await compile([ChannelSummaryModule.forRoot({ contentSummariser: { useClass: DomainSummariser } })]);
    expect(moduleRef.get(CONTENT_SUMMARISER)).toBeInstanceOf(DomainSummariser);
    expect(moduleRef.get(SummariserRegistry).get('heuristic')).toBe(moduleRef.get(CONTENT_SUMMARISER));
    // Extras are not part of the options the registry sees.
    expect(moduleRef.get(CHANNEL_SUMMARY_OPTIONS)).toEqual({});
  });

  it('lists a custom named strategy given in the options', async () => {
    const domain = new DomainSummariser();
    const moduleRef = await compile([ChannelSummaryModule.forRoot({ strategies: { domain } })]);
    const registry = moduleRef.get(SummariserRegistry);
    expect(registry.names()).toContain('domain');
    expect(registry.get('domain')).toBe(domain);
  });

  it('throws for an unknown name, listing the known names', async () => {
    const moduleRef = await compile([ChannelSummaryModule.forRoot({ strategies: { domain: new DomainSummariser() } })]);
    const registry = moduleRef.get(SummariserRegistry);
    expect(() => registry.get('nope')).toThrow(UnknownSummariserError);
    expect(() => registry.get('nope')).toThrow(/known summarisers: heuristic, verbatim, llm, tiered, domain/);
  });

  it('fails at start-up when a custom strategy shadows a built-in', async () => {
    await expect(compile([ChannelSummaryModule.forRoot({ strategies: { llm: new DomainSummariser() } })])).rejects.toThrow(SummariserConfigError);
  });

  it('reports llm unavailable without an API key', async () => {
    const llm = { apiKey: null, baseURL: null, model: 'claude-haiku-4-5', mode: 'EDIT' as const, timeoutMs: 30_000 };
    const moduleRef = await compile([ChannelSummaryModule.forRoot({ llm })]);
    expect(moduleRef.get(SummariserRegistry).availability('llm')).toEqual({ available: false, reason: LLM_UNAVAILABLE_REASON });
  });

  it('tiered without a key summarises a 30-message batch with the heuristic, annotating the fallback', async () => {
    const moduleRef = await compile([ChannelSummaryModule.forRoot({ tiered: { t1: 5, t2: 20 } })]);
    const result = await moduleRef.get(SummariserRegistry).get('tiered').summarise(batch(30), null);
    expect(result.annotations.tier).toBe('grouped');
    expect(result.annotations[ANNOTATION_TIER_FALLBACK]).toContain('large->medium');
    expect(result.text).toContain('Participants (3)');
  });

  it('forRootAsync resolves options from a factory', async () => {
    const domain = new DomainSummariser();
    const moduleRef = await compile([ChannelSummaryModule.forRootAsync({ useFactory: async () => ({ strategies: { domain }, defaultStrategy: 'domain' }) })]);
    const registry = moduleRef.get(SummariserRegistry);
    expect(registry.defaultName).toBe('domain');
    expect(registry.get()).toBe(domain);
  });
});
