import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options as HttpOptions } from 'pino-http';
import { LoggingConfig } from '../config/slices/logging-config';
import { activeTraceIds } from '../telemetry/spans';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Never logged: credentials in headers and bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.apiKey',
  '*.ANTHROPIC_API_KEY',
  '*.OPENAI_API_KEY',
  '*.QHORUS_LLM_API_KEY',
  '*.QHORUS_ADMIN_TOKEN',
];

/** Structured JSON logs, secrets redacted. `destination`: stdout unless given (tests capture it). */
export function loggerOptions(config: LoggingConfig, destination?: DestinationStream): Params {
  const options: HttpOptions = {
    level: config.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // With tracing on, each line inside a span names its trace and span (log ↔ trace correlation).
    mixin: traceIdsForLog,
  };
  // No per-request middleware: request lines come from one Fastify hook (request-log.ts).
  return { pinoHttp: destination ? [options, destination] : options, forRoutes: [] };
}

/** OpenTelemetry's log field names for the active span, or nothing (tracing off, no span). */
function traceIdsForLog(): Record<string, string> {
  const { traceId, spanId } = activeTraceIds();
  return traceId ? { trace_id: traceId, span_id: spanId! } : {};
}
