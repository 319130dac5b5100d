/**
 * OpenTelemetry tracing (DESIGN §13), loaded only when an OTLP endpoint is configured through the
 * standard variables: unset, no SDK module is even required, and every span helper in `spans.ts`
 * is a plain function call. Must run before the app's modules are loaded (main.ts does), so the
 * HTTP, pg and ioredis instrumentations can patch those modules as they are first required.
 */
import type { NodeSDK } from '@opentelemetry/sdk-node';

/** The service name spans carry when `OTEL_SERVICE_NAME` is unset. */
export const DEFAULT_OTEL_SERVICE_NAME = 'qhorus';
/** Routes whose spans are noise (probes and scrapes every few seconds). */
const UNTRACED_PATHS = ['/health', '/health/live', '/metrics'];
/**
 * Query parameters whose values never reach a server span: a search query is message text, and a
 * client that put a credential in the URL must not have it exported (the SDK's own list, plus `q`).
 */
const REDACTED_QUERY_PARAMS = ['q', 'query', 'token', 'access_token', 'api_key', 'apikey', 'key', 'secret', 'password', 'sig', 'signature', 'Signature', 'AWSAccessKeyId', 'X-Goog-Signature'];

let sdk: NodeSDK | null = null;

/** Whether tracing is configured in this environment (the standard OTLP endpoint variables). */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

/** Whether the SDK was started in this process (span helpers do nothing otherwise). */
export function tracingEnabled(): boolean {
  return sdk !== null;
}

/**
 * Starts the SDK if configured. The exporter, its protocol (`http/protobuf` by default,
 * `http/json`, `grpc`), sampling and batching follow the standard `OTEL_*` variables; traces only
 * (metrics stay with Prometheus at /metrics, logs with pino).
 */
export function startTracing(env: NodeJS.ProcessEnv = process.env): boolean {
  if (sdk || !tracingConfigured(env)) return sdk !== null;
  env.OTEL_SERVICE_NAME ||= DEFAULT_OTEL_SERVICE_NAME;
  env.OTEL_METRICS_EXPORTER ||= 'none';
  env.OTEL_LOGS_EXPORTER ||= 'none';
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { PgInstrumentation } = require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { IORedisInstrumentation } = require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.includes((req.url ?? '').split('?')[0]),
        redactedQueryParamsServer: REDACTED_QUERY_PARAMS,
      }),
      // Statement text only (parameters, and so message content, never reach a span). Only inside
      // a request's or a job's trace: a pool checkout or a query with no parent (keep-alives,
      // background passes) would start a trace of its own per statement.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true, ignoreConnectSpans: true }),
      // The command name only: arguments may carry job data or event payloads. Only inside a
      // trace: the queue's own polling and lock renewal would otherwise be a trace per command.
      new IORedisInstrumentation({ dbStatementSerializer: (command) => command, requireParentSpan: true }),
    ],
  });
  sdk.start();
  return true;
}

/** Flushes and stops the SDK (at shutdown), so the last spans are exported. */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = null;
  await running?.shutdown();
}
