import { SummaryResult } from '@qhorus/api';

/** A summariser resolved with something that must not be stored (blank text, non-string annotations). */
export class InvalidSummaryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidSummaryError';
  }
}

/**
 * A summariser must return text (not blank) and an object of string-valued annotations. Checked
 * before anything is merged or written, so a misbehaving summariser can never blank a summary,
 * and its fault is named (in `lastError`) instead of being masked by the state keys.
 */
export function assertValidSummary(result: SummaryResult, summariser: string): void {
  if (!result || typeof result.text !== 'string' || result.text.trim() === '') {
    throw new InvalidSummaryError(`summariser '${summariser}' returned a blank summary`);
  }
  const annotations: unknown = result.annotations ?? {};
  if (typeof annotations !== 'object' || Array.isArray(annotations)) {
    throw new InvalidSummaryError(`summariser '${summariser}' returned annotations that are not an object of strings`);
  }
  for (const [k, v] of Object.entries(annotations as Record<string, unknown>)) {
    if (typeof v !== 'string') throw new InvalidSummaryError(`summariser '${summariser}' returned a non-string annotation '${k}' (${describe(v)})`);
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
