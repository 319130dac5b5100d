import { RateLimiter } from '../../src/rate-limit/rate-limiter';
import { Lease, TokenSource } from '../../src/rate-limit/redis-token-bucket';
import { LEASE_HORIZON_MS, LEASE_TTL_MS, maxLeaseFor, SHARED_RETRY_AFTER_MS, SharedRateLimiter } from '../../src/rate-limit/shared-rate-limiter';
import { TakeResult, TokenBucket } from '../../src/rate-limit/token-bucket';

/** The shared bucket as Redis keeps it, in memory: one bucket per principal, leases counted. */
class FakeSharedBucket implements TokenSource {
  readonly buckets = new Map<string, TokenBucket>();
  leases = 0;
  /** The size asked for by each lease, in order. */
  readonly wanted: number[] = [];
  failing = false;
  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly clock: () => number,
  ) {}
  async lease(principal: string, wanted: number): Promise<Lease> {
    this.leases++;
    this.wanted.push(wanted);
    if (this.failing) throw new Error('redis is down');
    let bucket = this.buckets.get(principal);
    if (!bucket) this.buckets.set(principal, (bucket = new TokenBucket(this.rate, this.burst, this.clock())));
    let granted = 0;
    let last: TakeResult | null = null;
    while (granted < wanted && (last = bucket.take(this.clock())).allowed) granted++;
    return { granted, retryInMs: granted > 0 ? 0 : (last?.retryAfterSeconds ?? 1) * 1000 };
  }
  async close(): Promise<void> {}
}

describe('SharedRateLimiter', () => {
  let now = 0;
  const clock = () => now;
  const policy = { ratePerSecond: 1, burst: 20 };
  beforeEach(() => (now = 0));

  const limiterOn = (bucket: FakeSharedBucket, lease = 5) => new SharedRateLimiter(bucket, lease, new RateLimiter(policy, clock), clock);
  const allowed = async (results: (TakeResult | Promise<TakeResult>)[]) => (await Promise.all(results)).filter((r) => r.allowed).length;

  it('keeps one rate across instances: three instances together allow the burst once, not three times', async () => {
    const bucket = new FakeSharedBucket(policy.ratePerSecond, policy.burst, clock);
    const instances = [limiterOn(bucket), limiterOn(bucket), limiterOn(bucket)];
    const results: (TakeResult | Promise<TakeResult>)[] = [];
    for (let i = 0; i < 60; i++) results.push(await instances[i % 3].take('agent:alice'));
    expect(await allowed(results)).toBe(policy.burst);
    // Another agent has its own bucket.
    expect((await instances[0].take('agent:bob')).allowed).toBe(true);
  });

  it('asks the shared bucket once per lease, not once per request', async () => {
    const bucket = new FakeSharedBucket(policy.ratePerSecond, policy.burst, clock);
    const limiter = limiterOn(bucket, 5);
    for (let i = 0; i < 15; i++) expect((await limiter.take('agent:alice')).allowed).toBe(true);
    expect(bucket.leases).toBe(3);
  });

  it('shares one lease between concurrent requests', async () => {
    const bucket = new FakeSharedBucket(policy.ratePerSecond, policy.burst, clock);
    const limiter = limiterOn(bucket, 5);
    expect(await allowed(Array.from({ length: 5 }, () => limiter.take('agent:alice')))).toBe(5);
    expect(bucket.leases).toBe(1);
  });

  it('refuses locally while the shared bucket is empty, with Retry-After, then leases again once a token is due', async () => {
    const bucket = new FakeSharedBucket(policy.ratePerSecond, policy.burst, clock);
    const limiter = limiterOn(bucket, 20);
    for (let i = 0; i < 20; i++) await limiter.take('agent:alice');
    const refusal = await limiter.take('agent:alice');
    expect(refusal).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    const leases = bucket.leases;
    for (let i = 0; i < 10; i++) expect((await limiter.take('agent:alice')).allowed).toBe(false);
    expect(bucket.leases).toBe(leases); // no round trip per refused request
    now += 1_000;
    expect((await limiter.take('agent:alice')).allowed).toBe(true);
  });

  it('drops leased tokens it did not use in time, so an idle instance never banks them', async () => {
    const bucket = new FakeSharedBucket(1, 3, clock);
    const limiter = limiterOn(bucket, 3);
    expect((await limiter.take('agent:alice')).allowed).toBe(true); // leased 3, used 1
    now += LEASE_TTL_MS;
    // The bucket refilled 1 token meanwhile: only that one is available, not the 2 left over.
    expect(await allowed([await limiter.take('agent:alice'), await limiter.take('agent:alice')])).toBe(1);
  });

  it('falls back to the per-instance buckets while the shared one fails, and tries it again later', async () => {
    const bucket = new FakeSharedBucket(policy.ratePerSecond, policy.burst, clock);
    bucket.failing = true;
    const limiter = new SharedRateLimiter(bucket, 5, new RateLimiter({ ratePerSecond: 1, burst: 2 }, clock), clock);
    expect(await allowed([await limiter.take('agent:alice'), await limiter.take('agent:alice'), await limiter.take('agent:alice')])).toBe(2);
    expect(bucket.leases).toBe(1); // the others did not wait on a dead Redis
    bucket.failing = false;
    now += SHARED_RETRY_AFTER_MS;
    expect((await limiter.take('agent:alice')).allowed).toBe(true);
    expect(bucket.leases).toBe(2);
  });

  describe('lease size', () => {
    const busy = { ratePerSecond: 200, burst: 1000 };
    const adaptive = (bucket: FakeSharedBucket) => new SharedRateLimiter(bucket, 10, new RateLimiter(busy, clock), clock, maxLeaseFor(busy.ratePerSecond, 10));

    it('is capped at LEASE_HORIZON_MS of the configured rate, and never below the smallest lease', () => {
      expect(maxLeaseFor(200, 10)).toBe((200 * LEASE_HORIZON_MS) / 1000);
      expect(maxLeaseFor(1, 5)).toBe(5);
    });

    it('grows with a steady agent to LEASE_HORIZON_MS of its demand: fewer round trips, every request allowed', async () => {
      const bucket = new FakeSharedBucket(busy.ratePerSecond, busy.burst, clock);
      const limiter = adaptive(bucket);
      // 100 requests a second for two seconds.
      for (let i = 0; i < 200; i++, now += 10) expect((await limiter.take('agent:alice')).allowed).toBe(true);
      const steady = (100 * LEASE_HORIZON_MS) / 1000;
      expect(bucket.wanted[0]).toBe(10);
      expect(bucket.wanted.slice(-3)).toEqual([steady, steady, steady]);
      expect(bucket.leases).toBeLessThan(200 / 10 / 2); // a fixed lease of 10 would take 20
    });

    it('never asks for more than the cap, however fast the requests come', async () => {
      const bucket = new FakeSharedBucket(busy.ratePerSecond, busy.burst, clock);
      const limiter = adaptive(bucket);
      for (let i = 0; i < 500; i++) await limiter.take('agent:alice');
      expect(Math.max(...bucket.wanted)).toBe(maxLeaseFor(busy.ratePerSecond, 10));
    });

    it('starts again from the smallest lease after the agent went quiet, and after a refusal', async () => {
      const bucket = new FakeSharedBucket(busy.ratePerSecond, 60, clock);
      const limiter = adaptive(bucket);
      for (let i = 0; i < 30; i++, now += 5) await limiter.take('agent:alice');
      expect(bucket.wanted[bucket.wanted.length - 1]).toBeGreaterThan(10);
      now += LEASE_TTL_MS;
      await limiter.take('agent:alice');
      expect(bucket.wanted[bucket.wanted.length - 1]).toBe(10);
      // Spend the bucket to a refusal at one instant: the lease after it is the smallest again.
      while ((await limiter.take('agent:alice')).allowed);
      now += LEASE_TTL_MS;
      await limiter.take('agent:alice');
      expect(bucket.wanted[bucket.wanted.length - 1]).toBe(10);
    });

    it('keeps one rate across instances: adaptive leases still allow the burst once', async () => {
      const bucket = new FakeSharedBucket(policy.ratePerSecond, policy.burst, clock);
      const instances = [0, 1, 2].map(() => new SharedRateLimiter(bucket, 2, new RateLimiter(policy, clock), clock, 50));
      const results: TakeResult[] = [];
      for (let i = 0; i < 60; i++, now += 1) results.push(await instances[i % 3].take('agent:alice'));
      expect(await allowed(results)).toBe(policy.burst);
    });
  });
});
