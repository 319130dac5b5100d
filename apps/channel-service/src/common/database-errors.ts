/** Postgres error codes the API maps to client errors. */
export const PG_UNIQUE_VIOLATION = '23505';
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P03', '08006', '08001', '08003']);

export function pgErrorCode(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e?.driverError?.code ?? e?.code;
}

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { constraint?: string; driverError?: { constraint?: string } };
  if (pgErrorCode(error) !== PG_UNIQUE_VIOLATION) return false;
  return !constraint || (e.driverError?.constraint ?? e.constraint) === constraint;
}

/**
 * Data exceptions Postgres raises only for values a client sent: a NUL character in text or JSON
 * (which Postgres cannot store), a number outside bigint. Every write is one statement or one
 * transaction, so such a rejection has written nothing: it is a 400, not a 500.
 */
const NUL_CHARACTER_CODES = new Set(['22021', '22P05']);
const BAD_VALUE_CODES = new Set(['22P02', '22003', '22001']);

/** The client-facing reason when Postgres rejected a value the client sent, else null. */
export function rejectedInputReason(error: unknown): string | null {
  const code = pgErrorCode(error);
  if (code && NUL_CHARACTER_CODES.has(code)) return 'text must not contain NUL (\\u0000) characters';
  if (code && BAD_VALUE_CODES.has(code)) return String((error as Error)?.message ?? 'a value is out of range');
  return null;
}

/** True when Postgres could not be reached (refused, reset, pool timeout, server shutting down). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code && CONNECTION_ERROR_CODES.has(code)) return true;
  const message = String((error as Error)?.message ?? '');
  // "Query read timeout": pg's query_timeout (QHORUS_DB_QUERY_TIMEOUT_MS) fired — no answer, as in a partition.
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error|Query read timeout/i.test(
    message,
  );
}
