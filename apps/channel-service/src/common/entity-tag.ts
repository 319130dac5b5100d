import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** Conditional reads (DESIGN §6): an answer's tag, and a 304 when the caller already has it. */
const NOT_MODIFIED = 304;
/** Caches may keep the answer but must revalidate it every time (the tag makes that cheap). */
const REVALIDATE_ALWAYS = 'private, no-cache';

/**
 * A strong entity tag over the inputs that decide an answer: equal inputs give a byte-identical
 * body, and any input that changes the body changes the tag. A hash, so the tag says nothing of
 * the channel (its name, members, seq) to whoever sees it.
 */
export function entityTag(inputs: readonly (string | number | boolean | null | undefined)[]): string {
  return `"${createHash('sha256').update(JSON.stringify(inputs)).digest('base64url').slice(0, 32)}"`;
}

/** Whether `If-None-Match` (a list of tags, weak or strong, or `*`) names `tag` (weak comparison, RFC 9110 §13.1.2). */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const t = candidate.trim();
    return t === '*' || (t.startsWith('W/') ? t.slice(2) : t) === tag;
  });
}

/**
 * Sends the tag; when the caller has it already, answers 304 with no body (returns true, and the
 * handler returns nothing).
 */
export function answeredNotModified(reply: FastifyReply, ifNoneMatch: string | undefined, tag: string): boolean {
  reply.header('etag', tag).header('cache-control', REVALIDATE_ALWAYS);
  if (!ifNoneMatchHits(ifNoneMatch, tag)) return false;
  reply.status(NOT_MODIFIED);
  return true;
}
