import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import { AppConfig } from './app-config';
import { AuditConfig } from './slices/audit-config';
import { AuthConfig } from './slices/auth-config';
import { BusConfig } from './slices/bus-config';
import { ChannelsConfig } from './slices/channels-config';
import { CostConfig } from './slices/cost-config';
import { DatabaseConfig } from './slices/database-config';
import { ExportConfig } from './slices/export-config';
import { HealthConfig } from './slices/health-config';
import { LifecycleConfig } from './slices/lifecycle-config';
import { LoggingConfig } from './slices/logging-config';
import { McpConfig } from './slices/mcp-config';
import { MessagesConfig } from './slices/messages-config';
import { RateLimitConfig } from './slices/rate-limit-config';
import { RealtimeConfig } from './slices/realtime-config';
import { RequestLimitsConfig } from './slices/request-limits-config';
import { RetentionConfig } from './slices/retention-config';
import { SearchConfig } from './slices/search-config';
import { SummaryConfig } from './slices/summary-config';
import { SummaryQueueConfig } from './slices/summary-queue-config';
import { ThreadsConfig } from './slices/threads-config';
import { WebhookConfig } from './slices/webhook-config';

/**
 * Configuration by feature. `loadConfig` (app-config.ts) reads and validates every setting once,
 * at start-up, into `AppConfig`: every knob has a named default there and is listed in
 * .env.example (user settings) or docs/tuning.md (internal tuning values).
 *
 * A feature injects its own *slice*, never `AppConfig`: a small class in `slices/` whose
 * constructor takes the validated `AppConfig` and keeps, readonly and already parsed, only the
 * settings that feature reads (`WebhookConfig`, `SearchConfig`, …). To give a feature its slice:
 * write `slices/<feature>-config.ts` on that model, add the class to CONFIG_SLICES below (this
 * module provides and exports each one, built from the one AppConfig), and inject it. A unit test
 * builds one as `new WebhookConfig(loadConfig({ … }))`.
 *
 * A factory choosing a driver that opens a connection of its own (the bus's Postgres LISTEN, the
 * summary job lock) reads `DatabaseConfig` beside its feature's slice. `AppConfig` itself is
 * provided for the composition root only (app.module.ts, bootstrap.ts, main.ts).
 */
export const CONFIG_SLICES = [
  AuditConfig,
  AuthConfig,
  BusConfig,
  ChannelsConfig,
  CostConfig,
  DatabaseConfig,
  ExportConfig,
  HealthConfig,
  LifecycleConfig,
  LoggingConfig,
  McpConfig,
  MessagesConfig,
  RateLimitConfig,
  RealtimeConfig,
  RequestLimitsConfig,
  RetentionConfig,
  SearchConfig,
  SummaryConfig,
  SummaryQueueConfig,
  ThreadsConfig,
  WebhookConfig,
] as const;

/** Provides the one validated AppConfig and every feature's slice of it. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    const slices: Provider[] = CONFIG_SLICES.map((Slice) => ({ provide: Slice, inject: [AppConfig], useFactory: (app: AppConfig) => new Slice(app) }));
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }, ...slices], exports: [AppConfig, ...CONFIG_SLICES] };
  }
}
