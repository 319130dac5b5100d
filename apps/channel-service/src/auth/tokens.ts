import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_BYTES = 24;
export const AGENT_TOKEN_PREFIX = 'qh_';

/** The SHA-256 of a token. Tokens are long random strings, so no salt or KDF is needed. */
export function tokenDigest(token: string): Buffer {
  // One-shot hash (Node ≥ 20.12): no Hash object per request.
  return hash('sha256', token, 'buffer') as Buffer;
}

/** Tokens are stored (and cached) as the hex of their digest. */
export function hashToken(token: string): string {
  return tokenDigest(token).toString('hex');
}

export function generateToken(prefix = AGENT_TOKEN_PREFIX): string {
  return prefix + randomBytes(TOKEN_BYTES).toString('base64url');
}

/** Constant-time comparison of two digests (equal length by construction: both SHA-256). */
export function sameDigest(a: Buffer, b: Buffer): boolean {
  return timingSafeEqual(a, b);
}
