import { BadRequestException } from '@nestjs/common';
import { errorBody } from './api-error.filter';
import { exceedsJsonDepth } from './json-depth';
import { badTextException, findBadText } from './json-text';

/**
 * The little of Fastify used here, typed structurally: @nestjs/platform-fastify bundles its own
 * copy of fastify, whose types differ nominally from the top-level one.
 */
interface HookHost {
  addHook(
    name: 'preValidation',
    hook: (request: { body?: unknown; query?: unknown; params?: unknown; routeOptions?: { url?: string } }, reply: unknown, done: (err?: Error) => void) => void,
  ): unknown;
}
interface ErrorReply {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's send() is generic over the route's reply type
  code(status: number): { send(...args: any[]): unknown };
}

/**
 * The rules every request's values meet before validation, in one hook (no promise, one pass of
 * Fastify's hook runner per request). The error goes through Nest's error handler, hence
 * ApiErrorFilter, like every other error.
 * - A body nested deeper than `maxDepth`: 400, before anything recursive (validation, JSON
 *   columns) touches it.
 * - Any string or key of the body, query or path that could not be stored as sent (a NUL, a
 *   lone surrogate, a key such as `toString`; see findBadText): 400 naming where it is
 *   (`messages.1.content`, `metadata.note`, `topic`), so no write starts with such a value. Not on the MCP route (`skipTextRoute`): its tools apply
 *   the same rule to their arguments, by argument name.
 */
export function registerRequestRules(fastify: HookHost, maxDepth: number, skipTextRoute: string): void {
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (exceedsJsonDepth(request.body, maxDepth)) {
      return done(new BadRequestException(`Request body nests deeper than ${maxDepth} levels (QHORUS_JSON_MAX_DEPTH)`));
    }
    if (request.routeOptions?.url === skipTextRoute) return done(); // the route matched, however its URL was spelled
    const bad = findBadText(request.params) ?? findBadText(request.query) ?? findBadText(request.body);
    done(bad ? badTextException(bad) : undefined);
  });
}

/**
 * Errors Fastify raises before routing (a URL that cannot be decoded, …) never reach Nest's error
 * handler; this answers them in the API error shape too.
 */
export function frameworkErrorHandler(error: { statusCode?: number; message: string }, _request: unknown, reply: ErrorReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  reply.code(status).send(errorBody(status, error.message));
}

const BODY_TOO_LARGE = 'FST_ERR_CTP_BODY_TOO_LARGE';
const PAYLOAD_TOO_LARGE = 413;

interface RouteHost {
  addHook(name: 'onRoute', hook: (route: { url: string; bodyLimit?: number; errorHandler?: unknown }) => void): unknown;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's handler is typed over its own request/reply classes
  errorHandler: (this: unknown, error: any, request: any, reply: any) => unknown;
}

export interface BodyLimit {
  bytes: number;
  /** The setting that sets it, named in the 413. */
  knob: string;
}

/**
 * Every route's 413 names the limit and the knob that set it (Nest's error handler would see only
 * Fastify's "Request body is too large"); a route whose URL ends with `urlSuffix` has a limit of
 * its own (the batch route takes bigger bodies than the rest). Other errors go where every route's go.
 */
export function registerRouteBodyLimits(fastify: RouteHost, all: BodyLimit, urlSuffix: string, own: BodyLimit): void {
  fastify.addHook('onRoute', (route) => {
    const isOwn = route.url.endsWith(urlSuffix);
    const { bytes: limitBytes, knob } = isOwn ? own : all;
    const previous = route.errorHandler as RouteHost['errorHandler'] | undefined;
    route.bodyLimit = limitBytes;
    route.errorHandler = function (this: unknown, error: { code?: string }, request: unknown, reply: ErrorReply) {
      if (error.code !== BODY_TOO_LARGE) return (previous ?? fastify.errorHandler).call(this, error, request, reply);
      const which = isOwn ? 'the batch body limit' : 'the limit';
      reply.code(PAYLOAD_TOO_LARGE).send(errorBody(PAYLOAD_TOO_LARGE, `Request body is over ${which} of ${limitBytes} bytes (${knob})`));
    };
  });
}
