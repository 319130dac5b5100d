import { BadRequestException } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './api-error.filter';
import { exceedsJsonDepth } from './json-depth';

/**
 * Rejects request bodies nested deeper than `maxDepth` with a 400, after parsing and before
 * anything recursive (validation, JSON columns) touches them. The error goes through Nest's
 * error handler, hence ApiErrorFilter, like every other error.
 */
export function registerBodyDepthLimit(fastify: FastifyInstance, maxDepth: number): void {
  fastify.addHook('preValidation', async (request: FastifyRequest) => {
    if (exceedsJsonDepth(request.body, maxDepth)) {
      throw new BadRequestException(`Request body nests deeper than ${maxDepth} levels (QHORUS_JSON_MAX_DEPTH)`);
    }
  });
}

/**
 * Errors Fastify raises before routing (a URL that cannot be decoded, …) never reach Nest's error
 * handler; this answers them in the API error shape too.
 */
export function frameworkErrorHandler(error: Error & { statusCode?: number }, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  void reply.code(status).send(errorBody(status, error.message));
}
