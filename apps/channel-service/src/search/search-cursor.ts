import { createHash } from 'node:crypto';
import { fieldProblem } from '../common/validation.pipe';

/** Where a page of search results ended: the last result's rank (as Postgres wrote it) and key. */
export interface SearchPosition {
  /** ts_rank_cd's float4 as text: compared back as float4, so the same value exactly. */
  rank: string;
  channel: string;
  seq: number;
}

/** The cursor's own format version: a cursor of another version is refused, not misread. */
const CURSOR_VERSION = 1;
/** Hex digits of the search's fingerprint kept in the cursor (enough to tell searches apart). */
const FINGERPRINT_HEX = 16;
/** A non-negative float as Postgres prints a float4 (`0.1`, `3`, `1e-05`). */
const RANK_TEXT = /^\d+(\.\d+)?(e[-+]?\d+)?$/i;
const CHANNEL_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** What makes two searches the same one (a cursor is only valid for the search that gave it). */
export function searchFingerprint(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, FINGERPRINT_HEX);
}

/** Opaque to clients: base64url of a small JSON. */
export function encodeCursor(position: SearchPosition, fingerprint: string): string {
  const body = { v: CURSOR_VERSION, r: position.rank, c: position.channel, s: position.seq, f: fingerprint };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The position a cursor names, or a 400 naming `cursor` (malformed, or from another search). */
export function decodeCursor(cursor: string, fingerprint: string): SearchPosition {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  if (typeof body !== 'object' || body === null) throw malformed();
  const { v, r, c, s, f } = body as Record<string, unknown>;
  const valid =
    v === CURSOR_VERSION &&
    typeof r === 'string' && RANK_TEXT.test(r) && Number.isFinite(Number(r)) &&
    typeof c === 'string' && CHANNEL_NAME.test(c) &&
    typeof s === 'number' && Number.isSafeInteger(s) && s >= 1 &&
    typeof f === 'string';
  if (!valid) throw malformed();
  if (f !== fingerprint) throw fieldProblem('cursor', 'belongs to another search (q and the filters must stay the same while paging)');
  return { rank: r, channel: c, seq: s };
}

const malformed = () => fieldProblem('cursor', 'is malformed: pass the nextCursor of a previous answer as it was');
