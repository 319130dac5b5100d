import { RateLimiter } from '../rate-limit/rate-limiter';
import { TooManyRequestsException } from '../rate-limit/too-many-requests.exception';

/**
 * Failed authentications per client address, as a token bucket (QHORUS_AUTH_FAILURES_PER_SECOND,
 * QHORUS_AUTH_FAILURE_BURST). Each 401 takes a token; an address with none left gets 429 instead.
 * A database lookup of an unknown token takes its token *before* the query (given back if the
 * token is valid), so however many requests are in flight, an address's lookups never exceed
 * the burst plus the refill. Known tokens (cached, or the admin's) take nothing, so clients that
 * share a proxy with an attacker keep working.
 */
export class AuthFailureLimiter {
  constructor(private readonly limiter: RateLimiter) {}

  /** Counts one failure; throws 429 (instead of the caller's 401) once `address` is over the limit. */
  recordFailure(address: string): void {
    const decision = this.limiter.take(address);
    if (!decision.allowed) throw tooManyFailures(address, decision.retryAfterSeconds);
  }

  /** Reserves a failure for a database lookup (429 when none is left); `refund` it if the token was valid. */
  reserveLookup(address: string): void {
    this.recordFailure(address);
  }

  refund(address: string): void {
    this.limiter.refund(address);
  }
}

function tooManyFailures(address: string, retryAfterSeconds: number): TooManyRequestsException {
  return new TooManyRequestsException(
    address,
    retryAfterSeconds,
    `Too many failed authentications from ${address} (limit QHORUS_AUTH_FAILURE_BURST, refilled at QHORUS_AUTH_FAILURES_PER_SECOND): retry after ${retryAfterSeconds} s`,
  );
}
