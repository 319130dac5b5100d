import { BadRequestException } from '@nestjs/common';
import { errorBody } from './api-error.filter';
import { exceedsJsonDepth } from './json-depth';

/**
 * The little of Fastify used here, typed structurally: @nestjs/platform-fastify bundles its own
 * copy of fastify, whose types differ nominally from the top-level one.
 */
interface HookHost {
  addHook(name: 'preValidation', hook: (request: { body?: unknown }, reply: unknown, done: (err?: Error) => void) => void): unknown;
}
interface ErrorReply {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's send() is generic over the route's reply type
  code(status: number): { send(...args: any[]): unknown };
}

/**
 * Rejects request bodies nested deeper than `maxDepth` with a 400, after parsing and before
 * anything recursive (validation, JSON columns) touches them. The error goes through Nest's
 * error handler, hence ApiErrorFilter, like every other error.
 */
export function registerBodyDepthLimit(fastify: HookHost, maxDepth: number): void {
  // Callback style, not async: no promise per request.
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (!exceedsJsonDepth(request.body, maxDepth)) return done();
    done(new BadRequestException(`Request body nests deeper than ${maxDepth} levels (QHORUS_JSON_MAX_DEPTH)`));
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
