import type { FastifyReply } from 'fastify';

/** Aborts when the client closes the connection before the answer is sent (a long poll then stops waiting). */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}
