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
/**
 * A lease covers this much of the principal's recent demand on this instance (and at most this
 * much of its configured rate): a busy agent is asked about less often, and an instance never
 * holds more than a quarter second of the agent's rate.
 */
export const LEASE_HORIZON_MS = 250;
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
  /** When the last lease was granted, and how many tokens it brought (0: none yet). */
  leasedAt: number;
  lastGranted: number;
}

const ALLOWED: TakeResult = { allowed: true, remaining: 0, retryAfterSeconds: 0 };
const refused = (ms: number): TakeResult => ({ allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(ms / MS_PER_SECOND)) });

/**
 * One rate per principal across every instance sharing a Redis, without a Redis round trip per
 * request: an instance leases tokens from the principal's shared bucket and spends them locally; a
 * lease is one short script call. A lease is `minLease` tokens, or LEASE_HORIZON_MS of the demand
 * this instance saw while spending the previous one when that is more, up to `maxLease`. Concurrent requests of one principal
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
    private readonly minLease: number,
    private readonly fallback: RateLimiter,
    private readonly now: () => number = Date.now,
    private readonly maxLease: number = minLease,
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
      allowance = { tokens: 0, expiresAt: 0, deniedUntil: 0, pending: null, leasedAt: 0, lastGranted: 0 };
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
    const { granted, retryInMs } = await this.source.lease(principal, this.leaseSize(a, this.now()));
    const now = this.now();
    if (granted > 0) {
      a.tokens += granted;
      a.expiresAt = now + LEASE_TTL_MS;
      a.leasedAt = now;
      a.lastGranted = granted;
    } else {
      a.deniedUntil = now + retryInMs;
      a.lastGranted = 0;
    }
  }

  /**
   * The next lease: the previous one was spent in `now − leasedAt`, so the demand is known; an
   * expired lease (the principal went quiet) or none yet starts again from `minLease`.
   */
  private leaseSize(a: Allowance, now: number): number {
    const spentIn = now - a.leasedAt;
    if (a.lastGranted === 0 || spentIn >= LEASE_TTL_MS) return this.minLease;
    const demand = Math.ceil((a.lastGranted * LEASE_HORIZON_MS) / Math.max(spentIn, 1));
    return Math.min(this.maxLease, Math.max(this.minLease, demand));
  }

  private sweepIdle(now: number): void {
    if (now - this.sweptAt < IDLE_SWEEP_EVERY_MS) return;
    this.sweptAt = now;
    for (const [principal, a] of this.allowances) if (!a.pending && now >= a.expiresAt && now >= a.deniedUntil) this.allowances.delete(principal);
  }
}

/** The largest lease for a rate: LEASE_HORIZON_MS of it, and never less than the smallest lease. */
export function maxLeaseFor(ratePerSecond: number, minLease: number): number {
  return Math.max(minLease, Math.floor((ratePerSecond * LEASE_HORIZON_MS) / MS_PER_SECOND));
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
