import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Message, MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import {
  ChannelSummaryModule,
  CONTENT_SUMMARISER,
  HeuristicMessageSummariser,
  SummariserConfigError,
  SUMMARISER_STRATEGIES,
  SummariserRegistry,
} from '@qhorus/blocks-channel-summary';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { message } from './conversation-generator';

const batch = (n: number) => Array.from({ length: n }, (_, i) => message(i + 1, { type: MessageType.STATUS, sender: `a${i % 3}` }));

/** A dependency of the domain summariser, provided by the domain module (proves DI reaches it). */
@Injectable()
class Prefix {
  readonly value = 'domain';
}

@Injectable()
class DomainSummariser implements ContentSummariser<Message> {
  constructor(private readonly prefix: Prefix) {}
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    return summaryResult(`${this.prefix.value} ${items.length}`, { ...(previous?.annotations ?? {}), tier: 'domain' });
  }
}

class Shouty implements ContentSummariser<Message> {
  async summarise(items: readonly Message[]): Promise<SummaryResult> {
    return summaryResult(`${items.length} MESSAGES`, {});
  }
}

/** What a domain team writes: its summariser as the default, and a named strategy. */
@Module({
  providers: [
    Prefix,
    DomainSummariser,
    { provide: CONTENT_SUMMARISER, useExisting: DomainSummariser },
    { provide: SUMMARISER_STRATEGIES, useFactory: (d: DomainSummariser) => ({ domain: d, shouty: new Shouty() }), inject: [DomainSummariser] },
  ],
  exports: [CONTENT_SUMMARISER, SUMMARISER_STRATEGIES, DomainSummariser],
})
class DomainSummaryModule {}

/** A module elsewhere in the app that injects the default summariser. */
@Injectable()
class Consumer {
  constructor(
    @Inject(CONTENT_SUMMARISER) readonly summariser: ContentSummariser<Message>,
    readonly registry: SummariserRegistry,
  ) {}
}
@Module({ providers: [Consumer], exports: [Consumer] })
class ConsumerModule {}

describe('ChannelSummaryModule imports extra (a domain team summariser module)', () => {
  it('a module exporting CONTENT_SUMMARISER replaces the default everywhere: registry, tiered medium tier, other modules', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ChannelSummaryModule.forRoot({ tiered: { t1: 5, t2: 20 } }), ConsumerModule],
    }).compile();
    // Baseline: without the domain module the heuristic is the default.
    expect(moduleRef.get(Consumer).summariser).toBeInstanceOf(HeuristicMessageSummariser);

    const withDomain = await Test.createTestingModule({
      imports: [ChannelSummaryModule.forRoot({ tiered: { t1: 5, t2: 20 }, imports: [DomainSummaryModule] }), ConsumerModule],
    }).compile();
    const domain = withDomain.get(DomainSummariser);
    const consumer = withDomain.get(Consumer);
    expect(consumer.summariser).toBe(domain);
    expect(consumer.registry.get('heuristic')).toBe(domain);
    expect(consumer.registry.get()).toBe(domain);
    expect((await consumer.registry.get('tiered').summarise(batch(10), null)).text).toBe('domain 10');
  });

  it('the module wins over a `contentSummariser` extra', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ChannelSummaryModule.forRoot({ contentSummariser: { useFactory: () => new Shouty() }, imports: [DomainSummaryModule] })],
    }).compile();
    expect(moduleRef.get(SummariserRegistry).get('heuristic')).toBe(moduleRef.get(DomainSummariser));
  });

  it('a module exporting SUMMARISER_STRATEGIES adds named strategies next to the options’ ones', async () => {
    const echo = new Shouty();
    const moduleRef = await Test.createTestingModule({
      imports: [ChannelSummaryModule.forRoot({ strategies: { echo }, imports: [DomainSummaryModule] })],
    }).compile();
    const registry = moduleRef.get(SummariserRegistry);
    expect(registry.names()).toEqual(['heuristic', 'verbatim', 'llm', 'tiered', 'echo', 'domain', 'shouty']);
    expect(registry.get('domain')).toBe(moduleRef.get(DomainSummariser));
    expect(registry.get('echo')).toBe(echo);
  });

  it('a strategy name given both in the options and by a module fails at start-up', async () => {
    const compiling = Test.createTestingModule({
      imports: [ChannelSummaryModule.forRoot({ strategies: { domain: new Shouty() }, imports: [DomainSummaryModule] })],
    }).compile();
    await expect(compiling).rejects.toThrow(SummariserConfigError);
  });

  it('a contributed strategy may not shadow a built-in', async () => {
    @Module({ providers: [{ provide: SUMMARISER_STRATEGIES, useValue: { verbatim: new Shouty() } }], exports: [SUMMARISER_STRATEGIES] })
    class Shadowing {}
    await expect(Test.createTestingModule({ imports: [ChannelSummaryModule.forRoot({ imports: [Shadowing] })] }).compile()).rejects.toThrow(
      /would shadow a built-in/,
    );
  });
});
