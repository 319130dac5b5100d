const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Extracts the token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? BEARER.exec(value) : null;
  return match ? match[1] : null;
}
