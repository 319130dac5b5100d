import { ConfigurableModuleBuilder, FactoryProvider, Module, Provider } from '@nestjs/common';
import { Message } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { ChannelSummaryModuleOptions } from './channel-summary.options';
import { CHANNEL_SUMMARY_OPTIONS, CONTENT_SUMMARISER } from './channel-summary.tokens';
import { HeuristicMessageSummariser } from './heuristic/heuristic-message-summariser';
import { buildSummariserRegistry } from './registry/build-summariser-registry';
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
  .setExtras<ChannelSummaryModuleExtras>({ isGlobal: true, contentSummariser: undefined }, (definition, extras) => ({
    ...definition,
    global: extras.isGlobal ?? true,
    providers: [
      ...(definition.providers ?? []),
      { provide: CONTENT_SUMMARISER, ...(extras.contentSummariser ?? DEFAULT_CONTENT_SUMMARISER) } as Provider,
    ],
  }))
  .build();

const REGISTRY_PROVIDER: FactoryProvider<SummariserRegistry> = {
  provide: SummariserRegistry,
  useFactory: (options: ChannelSummaryModuleOptions, heuristic: ContentSummariser<Message>) => buildSummariserRegistry(options, heuristic),
  inject: [CHANNEL_SUMMARY_OPTIONS, CONTENT_SUMMARISER],
};

/**
 * Provides the default `ContentSummariser<Message>` (CONTENT_SUMMARISER) and the
 * SummariserRegistry. `forRoot(options)` / `forRootAsync({ useFactory, inject, imports })`.
 * To replace the default: pass `contentSummariser` (e.g. `{ useClass: MySummariser }`) or, in
 * tests, `overrideProvider(CONTENT_SUMMARISER)`; `heuristic`, the default strategy and `tiered`'s
 * medium tier then all use it.
 */
@Module({
  providers: [REGISTRY_PROVIDER],
  exports: [CONTENT_SUMMARISER, SummariserRegistry, CHANNEL_SUMMARY_OPTIONS],
})
export class ChannelSummaryModule extends ChannelSummaryConfigurableModule {}
