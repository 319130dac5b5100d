import { ConfigurableModuleBuilder, DynamicModule, FactoryProvider, Module, Provider, Type } from '@nestjs/common';
import { Message } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { ChannelSummaryModuleOptions } from './channel-summary.options';
import { CHANNEL_SUMMARY_OPTIONS, CONTENT_SUMMARISER, SUMMARISER_STRATEGIES } from './channel-summary.tokens';
import { HeuristicMessageSummariser } from './heuristic/heuristic-message-summariser';
import { buildSummariserRegistry } from './registry/build-summariser-registry';
import { mergeStrategies, NamedStrategies } from './registry/merge-strategies';
import { SummariserRegistry } from './registry/summariser-registry';

/** A provider for CONTENT_SUMMARISER without its `provide` key (useClass / useValue / useFactory / useExisting). */
export type ContentSummariserProvider = Provider<ContentSummariser<Message>> extends infer P
  ? P extends { provide: unknown }
    ? Omit<P, 'provide'>
    : never
  : never;

/** Module-definition extras (not part of the options object the registry sees). */
export interface ChannelSummaryModuleExtras {
  /** Default true: the registry and the default summariser are injectable everywhere. */
  isGlobal?: boolean;
  /** Replaces the default summariser (HeuristicMessageSummariser) for the whole module. */
  contentSummariser?: ContentSummariserProvider;
  /**
   * Summariser modules of a domain team. One that exports CONTENT_SUMMARISER replaces the default
   * (it takes precedence over `contentSummariser`; if several do, the first listed wins); one that
   * exports SUMMARISER_STRATEGIES adds named strategies. They are imported here and re-exported,
   * so the same instances are what every consumer of CONTENT_SUMMARISER gets.
   */
  imports?: SummariserModule[];
}

/** A module that can be imported and re-exported (not a forward reference or a promise). */
export type SummariserModule = Type<unknown> | DynamicModule;

/**
 * Holds the default CONTENT_SUMMARISER. It is imported after the domain team's modules: Nest
 * resolves a token a module does not provide itself from its imports in order and stops at the
 * first that exports it, so a domain module's CONTENT_SUMMARISER wins and this is the fallback.
 */
@Module({})
class DefaultContentSummariserModule {
  static register(provider: ContentSummariserProvider, imports: SummariserModule[]): DynamicModule {
    return {
      module: DefaultContentSummariserModule,
      // The domain modules, so a `contentSummariser` factory can inject what they provide.
      imports,
      providers: [{ provide: CONTENT_SUMMARISER, ...provider } as Provider],
      exports: [CONTENT_SUMMARISER],
    };
  }
}

/** Default CONTENT_SUMMARISER: the zero-cost heuristic. */
const DEFAULT_CONTENT_SUMMARISER: ContentSummariserProvider = { useFactory: () => new HeuristicMessageSummariser() };

export const {
  ConfigurableModuleClass: ChannelSummaryConfigurableModule,
  OPTIONS_TYPE: CHANNEL_SUMMARY_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: CHANNEL_SUMMARY_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<ChannelSummaryModuleOptions>({ optionsInjectionToken: CHANNEL_SUMMARY_OPTIONS })
  .setClassMethodName('forRoot')
  // Every extras key must appear here (even undefined) so the builder strips it from the options.
  .setExtras<ChannelSummaryModuleExtras>({ isGlobal: true, contentSummariser: undefined, imports: undefined }, (definition, extras) => {
    const domainModules = extras.imports ?? [];
    const defaults = DefaultContentSummariserModule.register(extras.contentSummariser ?? DEFAULT_CONTENT_SUMMARISER, domainModules);
    return {
      ...definition,
      global: extras.isGlobal ?? true,
      // Order matters: the domain modules first, so their CONTENT_SUMMARISER is found first.
      imports: [...(definition.imports ?? []), ...domainModules, defaults],
      exports: [...(definition.exports ?? []), ...domainModules, defaults],
    };
  })
  .build();

const REGISTRY_PROVIDER: FactoryProvider<SummariserRegistry> = {
  provide: SummariserRegistry,
  useFactory: (options: ChannelSummaryModuleOptions, heuristic: ContentSummariser<Message>, contributed?: NamedStrategies) =>
    buildSummariserRegistry({ ...options, strategies: mergeStrategies(options.strategies, contributed) }, heuristic),
  inject: [CHANNEL_SUMMARY_OPTIONS, CONTENT_SUMMARISER, { token: SUMMARISER_STRATEGIES, optional: true }],
};

/**
 * Provides the default `ContentSummariser<Message>` (CONTENT_SUMMARISER) and the
 * SummariserRegistry. `forRoot(options)` / `forRootAsync({ useFactory, inject, imports })`.
 * To replace the default: list a module that provides and exports CONTENT_SUMMARISER in the
 * `imports` extra (what the service's `createApp(config, { imports })` does), or pass
 * `contentSummariser` (e.g. `{ useClass: MySummariser }`), or in tests
 * `overrideProvider(CONTENT_SUMMARISER)`; `heuristic`, the default strategy and `tiered`'s
 * medium tier then all use it. CONTENT_SUMMARISER itself is exported through the re-exported
 * modules that provide it.
 */
@Module({
  providers: [REGISTRY_PROVIDER],
  exports: [SummariserRegistry, CHANNEL_SUMMARY_OPTIONS],
})
export class ChannelSummaryModule extends ChannelSummaryConfigurableModule {}
