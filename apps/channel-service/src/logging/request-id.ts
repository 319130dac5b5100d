import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_HEADER } from './logger.options';

/** An incoming id is kept only when it is short and plain: it goes into every log line. */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's own request id (pino-http logs `req.id` as Fastify set it): the caller's
 * `x-request-id` when it is a plain token, else a fresh UUID.
 */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && ACCEPTED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Echoes the request id on every response, so a caller can quote it when reporting a problem. */
export function echoRequestId(request: { id: string }, reply: { header(name: string, value: string): unknown }, done: () => void): void {
  reply.header(REQUEST_ID_HEADER, request.id);
  done();
}
