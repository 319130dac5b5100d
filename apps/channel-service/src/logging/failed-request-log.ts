import { Logger } from '@nestjs/common';
import { LOG_LEVELS } from '../config/app-config';

type LogLevel = (typeof LOG_LEVELS)[number];

/** Levels that log every request ('request completed' is an info line): only these need pino-http. */
const PER_REQUEST_LEVELS: ReadonlySet<LogLevel> = new Set(['info', 'debug', 'trace']);
const SERVER_ERROR = 500;
const CLIENT_ERROR = 400;

/**
 * Whether the per-request logger (pino-http through Nest middleware) is installed. At warn and
 * quieter it would only ever print failed requests, yet it costs every request a middleware pass,
 * a child logger and async-context tracking — about a third of a summary read's CPU
 * (docs/benchmarks.md). There `registerFailedRequestLog` prints those lines instead.
 */
export function logsEveryRequest(level: LogLevel): boolean {
  return PER_REQUEST_LEVELS.has(level);
}

/** The little of Fastify used here (the adapter bundles its own fastify types). */
interface HookHost {
  addHook(
    name: 'onResponse',
    hook: (request: { id: string; method: string; url: string }, reply: { statusCode: number; elapsedTime: number }, done: () => void) => void,
  ): unknown;
}

/**
 * At warn/error/fatal: one line per failed request, as pino-http would have printed it at that
 * level (4xx warn, 5xx error, with the request id, method, url, status and response time).
 * Lines logged while handling a request carry no `req` binding at these levels.
 */
export function registerFailedRequestLog(fastify: HookHost, level: LogLevel): void {
  if (logsEveryRequest(level) || level === 'silent') return;
  const logger = new Logger('HTTP');
  fastify.addHook('onResponse', (request, reply, done) => {
    done(); // callback style, not async: no promise per request
    if (reply.statusCode < CLIENT_ERROR) return;
    const line = {
      req: { id: request.id, method: request.method, url: request.url },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime),
    };
    if (reply.statusCode >= SERVER_ERROR) logger.error(line, 'request errored');
    else logger.warn(line, 'request completed');
  });
}
