import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_BYTES = 24;
export const AGENT_TOKEN_PREFIX = 'qh_';

/** Tokens are stored as SHA-256 hashes: they are long random strings, so no salt or KDF is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function generateToken(prefix = AGENT_TOKEN_PREFIX): string {
  return prefix + randomBytes(TOKEN_BYTES).toString('base64url');
}

export function sameSecret(a: string, b: string): boolean {
  const ha = Buffer.from(hashToken(a), 'hex');
  const hb = Buffer.from(hashToken(b), 'hex');
  return timingSafeEqual(ha, hb);
}
