import { RateLimiter } from '../rate-limit/rate-limiter';
import { TooManyRequestsException } from '../rate-limit/too-many-requests.exception';

/**
 * Failed authentications per client address, as a token bucket (QHORUS_AUTH_FAILURES_PER_SECOND,
 * QHORUS_AUTH_FAILURE_BURST). Each 401 takes a token; an address with none left gets 429 instead,
 * and its unknown tokens are not looked up at all. Known tokens (cached, or the admin's) still
 * pass from such an address, so clients sharing a proxy with an attacker keep working.
 */
export class AuthFailureLimiter {
  constructor(private readonly limiter: RateLimiter) {}

  /** Throws 429 when `address` may not cost a database lookup now. */
  assertMayLookUp(address: string): void {
    const wait = this.limiter.secondsUntilAllowed(address);
    if (wait > 0) throw tooManyFailures(address, wait);
  }

  /** Counts one failure; throws 429 instead of letting the caller answer 401 once over the limit. */
  recordFailure(address: string): void {
    const decision = this.limiter.take(address);
    if (!decision.allowed) throw tooManyFailures(address, decision.retryAfterSeconds);
  }
}

function tooManyFailures(address: string, retryAfterSeconds: number): TooManyRequestsException {
  return new TooManyRequestsException(
    address,
    retryAfterSeconds,
    `Too many failed authentications from ${address} (limit QHORUS_AUTH_FAILURE_BURST, refilled at QHORUS_AUTH_FAILURES_PER_SECOND): retry after ${retryAfterSeconds} s`,
  );
}
