const MS_PER_SECOND = 1000;

/** What one attempt to take a token decided. */
export interface TakeResult {
  allowed: boolean;
  /** Tokens left after this request (0 when refused). */
  remaining: number;
  /** When refused: whole seconds until a token is available again (≥ 1). */
  retryAfterSeconds: number;
}

/**
 * A classic token bucket: `capacity` tokens, refilled continuously at `ratePerSecond`. A request
 * takes one token; an empty bucket refuses and says how long until the next token.
 */
export class TokenBucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly capacity: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.refilledAt = now;
  }

  take(now: number): TakeResult {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true, remaining: Math.floor(this.tokens), retryAfterSeconds: 0 };
    }
    const secondsToNextToken = (1 - this.tokens) / this.ratePerSecond;
    return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(secondsToNextToken)) };
  }

  /** Gives back a token taken for something that turned out not to count (never above capacity). */
  refund(now: number): void {
    this.refill(now);
    this.tokens = Math.min(this.capacity, this.tokens + 1);
  }

  /** True when the bucket has refilled completely: it is then indistinguishable from a new one. */
  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }

  private refill(now: number): void {
    const elapsedMs = Math.max(0, now - this.refilledAt);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsedMs * this.ratePerSecond) / MS_PER_SECOND);
    this.refilledAt = now;
  }
}
