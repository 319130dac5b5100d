import { Logger } from '@nestjs/common';
import { PrincipalRateLimit } from './principal-rate-limit';
import { IDLE_SWEEP_EVERY_MS, MAX_TRACKED_PRINCIPALS, RateLimiter } from './rate-limiter';
import { TokenSource } from './redis-token-bucket';
import { TakeResult } from './token-bucket';

/**
 * Leased tokens not used by then are dropped: an instance never banks tokens for later, so the
 * fleet never exceeds the configured rate; the cost is that up to a lease per instance per
 * principal can go unused (the rate is then slightly under the configured one, never over).
 */
export const LEASE_TTL_MS = 1_000;
/** After the shared bucket failed (Redis down or slow), requests use the local buckets for this long before trying Redis again. */
export const SHARED_RETRY_AFTER_MS = 1_000;
const MS_PER_SECOND = 1000;

interface Allowance {
  /** Tokens leased from the shared bucket and not used yet. */
  tokens: number;
  expiresAt: number;
  /** The shared bucket was empty: refuse locally until then, without asking Redis per request. */
  deniedUntil: number;
  pending: Promise<void> | null;
}

const ALLOWED: TakeResult = { allowed: true, remaining: 0, retryAfterSeconds: 0 };
const refused = (ms: number): TakeResult => ({ allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(ms / MS_PER_SECOND)) });

/**
 * One rate per principal across every instance sharing a Redis, without a Redis round trip per
 * request: an instance leases tokens from the principal's shared bucket `leaseSize` at a time and
 * spends them locally; a lease is one short script call. Concurrent requests of one principal
 * wait for the same lease. When the shared bucket is empty the instance refuses locally until
 * the next token is due. When Redis is unreachable the per-instance buckets take over (each
 * instance then allows the full rate: availability first), and the shared one is tried again
 * SHARED_RETRY_AFTER_MS later.
 */
export class SharedRateLimiter extends PrincipalRateLimit {
  private readonly logger = new Logger(SharedRateLimiter.name);
  private readonly allowances = new Map<string, Allowance>();
  private sharedDownUntil = 0;
  private sweptAt: number;

  constructor(
    private readonly source: TokenSource,
    private readonly leaseSize: number,
    private readonly fallback: RateLimiter,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.sweptAt = now();
  }

  take(principal: string): TakeResult | Promise<TakeResult> {
    const now = this.now();
    if (now < this.sharedDownUntil) return this.fallback.take(principal);
    const local = this.allowances.get(principal);
    if (local) {
      const decided = spend(local, now);
      if (decided) return decided;
    }
    return this.takeLeased(principal);
  }

  override async close(): Promise<void> {
    await this.source.close();
  }

  private async takeLeased(principal: string): Promise<TakeResult> {
    this.sweepIdle(this.now());
    let allowance = this.allowances.get(principal);
    if (!allowance) {
      allowance = { tokens: 0, expiresAt: 0, deniedUntil: 0, pending: null };
      this.allowances.set(principal, allowance);
      if (this.allowances.size > MAX_TRACKED_PRINCIPALS) this.allowances.delete(this.allowances.keys().next().value!);
    }
    const a = allowance;
    for (;;) {
      if (!a.pending) a.pending = this.lease(principal, a).finally(() => (a.pending = null));
      try {
        await a.pending;
      } catch (err) {
        if (this.now() >= this.sharedDownUntil) {
          this.logger.warn({ err: (err as Error).message }, 'shared rate limit unavailable; using per-instance buckets for now');
        }
        this.sharedDownUntil = this.now() + SHARED_RETRY_AFTER_MS;
        return this.fallback.take(principal);
      }
      // Other requests waiting on the same lease may have spent it: then lease again.
      const decided = spend(a, this.now());
      if (decided) return decided;
    }
  }

  private async lease(principal: string, a: Allowance): Promise<void> {
    const { granted, retryInMs } = await this.source.lease(principal, this.leaseSize);
    const now = this.now();
    if (granted > 0) {
      a.tokens += granted;
      a.expiresAt = now + LEASE_TTL_MS;
    } else {
      a.deniedUntil = now + retryInMs;
    }
  }

  private sweepIdle(now: number): void {
    if (now - this.sweptAt < IDLE_SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [principal, a] of this.allowances) if (!a.pending && now >= a.expiresAt && now >= a.deniedUntil) this.allowances.delete(principal);
  }
}

/** Decides from what this instance holds, or null when it must lease. */
function spend(a: Allowance, now: number): TakeResult | null {
  if (a.tokens >= 1 && now < a.expiresAt) {
    a.tokens--;
    return ALLOWED;
  }
  if (now >= a.expiresAt) a.tokens = 0;
  if (now < a.deniedUntil) return refused(a.deniedUntil - now);
  return null;
}
