import { PrincipalRateLimit } from './principal-rate-limit';
import { TakeResult, TokenBucket } from './token-bucket';

export interface RateLimitPolicy {
  ratePerSecond: number;
  burst: number;
}

/** Backstop on tracked principals; idle ones are dropped long before this matters. */
export const MAX_TRACKED_PRINCIPALS = 100_000;
/** How often (at most) idle buckets are swept out, piggy-backed on requests (no timer to clean up). */
export const IDLE_SWEEP_EVERY_MS = 10_000;

/**
 * One token bucket per principal, in this process. Memory is bounded: a bucket that has refilled
 * completely carries no state (a new bucket would be identical), so idle buckets are dropped;
 * and at most MAX_TRACKED_PRINCIPALS buckets exist, the least recently used going first.
 */
export class RateLimiter extends PrincipalRateLimit {
  private readonly buckets = new Map<string, TokenBucket>();
  private sweptAt: number;

  constructor(
    private readonly policy: RateLimitPolicy,
    private readonly now: () => number = Date.now,
    private readonly maxTracked = MAX_TRACKED_PRINCIPALS,
  ) {
    super();
    this.sweptAt = now();
  }

  take(principal: string): TakeResult {
    const now = this.now();
    this.sweepIdle(now);
    let bucket = this.buckets.get(principal);
    if (bucket) {
      this.buckets.delete(principal); // re-inserted below: Map order = least recently used first
    } else {
      bucket = new TokenBucket(this.policy.ratePerSecond, this.policy.burst, now);
    }
    this.buckets.set(principal, bucket);
    if (this.buckets.size > this.maxTracked) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket.take(now);
  }

  /** Gives back a token `take` took for `principal` (a reservation that did not count). */
  refund(principal: string): void {
    this.buckets.get(principal)?.refund(this.now());
  }

  /** How many principals currently have a (not yet full) bucket. */
  get tracked(): number {
    return this.buckets.size;
  }

  private sweepIdle(now: number): void {
    if (now - this.sweptAt < IDLE_SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [principal, bucket] of this.buckets) if (bucket.isFull(now)) this.buckets.delete(principal);
  }
}
