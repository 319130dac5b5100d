import { TakeResult } from './token-bucket';

/**
 * Decides whether a principal's request may go ahead. Synchronous when it can answer from this
 * process alone (the common case, even with a shared limit), a promise when it must ask.
 */
export abstract class PrincipalRateLimit {
  abstract take(principal: string): TakeResult | Promise<TakeResult>;
  async close(): Promise<void> {}
}
