import { DynamicModule, Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { ChannelSummaryModule, SummariserModule } from '@qhorus/blocks-channel-summary';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { ChannelsModule } from './channels/channels.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { LoggingConfig } from './config/slices/logging-config';
import { DatabaseModule } from './database/database.module';
import { HealthModule } from './health/health.module';
import { loggerOptions } from './logging/logger.options';
import { LifecycleModule } from './lifecycle/lifecycle.module';
import { logModelWarning } from './logging/model-warnings';
import { McpModule } from './mcp/mcp.module';
import { MessagesModule } from './messages/messages.module';
import { MetricsModule } from './metrics/metrics.module';
import { ProjectionModule } from './projection/projection.module';
import { EventStreamsModule } from './realtime/event-streams.module';
import { RealtimeModule } from './realtime/realtime.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { RetentionModule } from './retention/retention.module';
import { ExportModule } from './export/export.module';
import { SearchModule } from './search/search.module';
import { SummaryModule } from './summary/summary.module';
import { TelemetryModule } from './telemetry/telemetry.module';
import { ThreadsModule } from './threads/threads.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Ways to extend the service when embedding it (tests, domain teams' own entry points). */
export interface AppModuleOptions {
  /**
   * Extra modules, e.g. one that registers a custom summariser: a module that exports
   * CONTENT_SUMMARISER replaces the default, one that exports SUMMARISER_STRATEGIES adds named
   * strategies (docs/custom-summarisers.md).
   */
  imports?: SummariserModule[];
  /** Where the JSON logs go (default stdout); tests pass a stream to read them. */
  logDestination?: DestinationStream;
  /** Named summariser strategies a channel can pick with `summariser`. */
  summarisers?: Parameters<typeof ChannelSummaryModule.forRoot>[0]['strategies'];
}

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, options: AppModuleOptions = {}): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        TelemetryModule,
        LoggerModule.forRoot(loggerOptions(new LoggingConfig(config), options.logDestination)),
        EventEmitterModule.forRoot({ wildcard: false, maxListeners: 50 }),
        ChannelSummaryModule.forRoot({
          imports: options.imports,
          strategies: options.summarisers,
          tiered: { t1: config.QHORUS_TIERED_SMALL_MAX, t2: config.QHORUS_TIERED_MEDIUM_MAX },
          textMaxChars: config.QHORUS_SUMMARY_TEXT_MAX_CHARS,
          llm: {
            provider: config.QHORUS_LLM_PROVIDER,
            apiKey: config.llmApiKey ?? null,
            baseURL: config.llmBaseUrl ?? null,
            model: config.llmModel,
            onWarning: logModelWarning,
            mode: config.QHORUS_LLM_MODE,
            timeoutMs: config.QHORUS_LLM_TIMEOUT_MS,
            maxTokens: config.QHORUS_LLM_MAX_TOKENS,
          },
        }),
        DatabaseModule,
        AuthModule,
        AuditModule,
        RateLimitModule,
        ChannelsModule,
        MessagesModule,
        SummaryModule,
        ThreadsModule,
        RetentionModule,
        ExportModule,
        LifecycleModule,
        ProjectionModule,
        SearchModule,
        McpModule,
        RealtimeModule,
        EventStreamsModule,
        HealthModule,
        MetricsModule,
        WebhooksModule,
        ...(options.imports ?? []),
      ],
    };
  }
}
