export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

/** What is wrong with an idempotency key (header or MCP argument), or null. */
export function idempotencyKeyProblem(key: string): string | null {
  return key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH ? `must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters` : null;
}
