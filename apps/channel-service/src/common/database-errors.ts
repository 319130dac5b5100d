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

/** True when Postgres could not be reached (refused, reset, pool timeout, server shutting down). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = pgErrorCode(error);
  if (code && CONNECTION_ERROR_CODES.has(code)) return true;
  const message = String((error as Error)?.message ?? '');
  return /Connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|Client has encountered a connection error/i.test(message);
}
