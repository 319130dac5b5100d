import { SummaryResult } from '@qhorus/api';

/** A summariser resolved with something that must not be stored (blank text, non-string annotations). */
export class InvalidSummaryError extends Error {}

/**
 * A summariser must return text (not blank) and string-valued annotations. Checked before every
 * write, so a misbehaving summariser can never blank a summary (slot or thread).
 */
export function assertValidSummary(result: SummaryResult, summariser: string): void {
  if (!result || typeof result.text !== 'string' || result.text.trim() === '') {
    throw new InvalidSummaryError(`summariser '${summariser}' returned a blank summary`);
  }
  const annotations = result.annotations ?? {};
  for (const [k, v] of Object.entries(annotations)) {
    if (typeof v !== 'string') throw new InvalidSummaryError(`summariser '${summariser}' returned a non-string annotation '${k}'`);
  }
}
