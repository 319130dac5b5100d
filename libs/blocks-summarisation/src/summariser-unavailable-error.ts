/**
 * A tier cannot run at all (e.g. the LLM tier without an API key). Distinct from a failed
 * attempt so callers can fall back without treating it as a transient error.
 */
export class SummariserUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SummariserUnavailableError';
  }
}
