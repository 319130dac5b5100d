import { PinoLogger } from 'nestjs-pino';
import type { Logger as Pino } from 'pino';

const SERVER_ERROR = 500;
const CLIENT_ERROR = 400;

/** Health probes and metric scrapes: every few seconds, they would drown the log when they succeed. */
const PROBE_PATH = /^\/(health(\/live)?|metrics)(\?|$)/;

/**
 * Query parameters whose value may be a credential (a client that put its token in the URL): the
 * value is not logged. The service reads credentials only from the Authorization header.
 */
const SECRET_QUERY_NAME = /token|key|secret|password|passwd|auth|bearer|jwt|sig|credential|session|cookie/i;
/** Query parameters whose value is text an agent searched for (`GET /search?q=`): it may quote messages, so it is not logged either. */
const CONTENT_QUERY_NAME = /^(q|query)$/i;
const REDACTED = '[redacted]';

/**
 * The URL as logged: the value of every query parameter whose name looks like a credential is
 * replaced, the name read as the query parser reads it (`tok%65n` is `token`), the value up to the
 * next `&` whatever it holds (a raw `#` included).
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  return url.slice(0, query + 1) + url.slice(query + 1).split('&').map(loggablePair).join('&');
}

function loggablePair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq < 0) return pair;
  const name = decodedName(pair.slice(0, eq));
  return SECRET_QUERY_NAME.test(name) || CONTENT_QUERY_NAME.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
}

function decodedName(name: string): string {
  if (!name.includes('%') && !name.includes('+')) return name;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // not decodable: matched as sent
  }
}

const asIs = <T>(value: T): T => value;
const NOTHING_TO_REDACT: string[] = [];

/** The little of Fastify used here (the adapter bundles its own fastify types). */
interface HookHost {
  addHook(
    name: 'onResponse',
    hook: (request: { id: string; method: string; url: string }, reply: { statusCode: number; elapsedTime: number }, done: () => void) => void,
  ): unknown;
}

/**
 * One line per request, in pino-http's shape (`req {id, method, url}`, `res {statusCode}`,
 * `responseTime`, "request completed"): 2xx/3xx at info (successful probes not at all), 4xx at
 * warn, 5xx at error — written from one Fastify onResponse hook straight to the root pino logger. pino-http's Nest middleware did the same at a cost to every request
 * (a middleware pass, a child logger, async-context tracking: about a third of a summary read's
 * CPU, docs/benchmarks.md), so it is not installed; lines logged while handling a request carry
 * no `req` binding (the request id is on the completion line and echoed in `x-request-id`).
 */
export function registerRequestLog(fastify: HookHost): void {
  // nestjs-pino makes its root logger when the app initialises, after this hook is registered.
  let logger: Pino | undefined;
  fastify.addHook('onResponse', (request, reply, done) => {
    done(); // callback style, not async: no promise per request
    // pino-http's serializers expect raw req/res objects; these lines are already plain. No
    // redaction paths: the line is built here from the request id, method, URL (credential-looking
    // query values replaced) and status only, and the root's redaction paths cost ~10 µs a line.
    logger ??= PinoLogger.root.child({ context: 'HTTP' }, { serializers: { req: asIs, res: asIs }, redact: NOTHING_TO_REDACT });
    const status = reply.statusCode;
    const level = status >= SERVER_ERROR ? 'error' : status >= CLIENT_ERROR ? 'warn' : 'info';
    if (!logger.isLevelEnabled(level)) return;
    if (level === 'info' && PROBE_PATH.test(request.url)) return;
    logger[level](
      { req: { id: request.id, method: request.method, url: loggableUrl(request.url) }, res: { statusCode: status }, responseTime: Math.round(reply.elapsedTime) },
      status >= SERVER_ERROR ? 'request errored' : 'request completed',
    );
  });
}
