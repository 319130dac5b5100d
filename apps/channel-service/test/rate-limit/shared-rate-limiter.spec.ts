import { RateLimiter } from '../../src/rate-limit/rate-limiter';
import { Lease, TokenSource } from '../../src/rate-limit/redis-token-bucket';
import { LEASE_TTL_MS, SHARED_RETRY_AFTER_MS, SharedRateLimiter } from '../../src/rate-limit/shared-rate-limiter';
import { TakeResult, TokenBucket } from '../../src/rate-limit/token-bucket';

/** The shared bucket as Redis keeps it, in memory: one bucket per principal, leases counted. */
class FakeSharedBucket implements TokenSource {
  readonly buckets = new Map<string, TokenBucket>();
  leases = 0;
  failing = false;
  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly clock: () => number,
  ) {}
  async lease(principal: string, wanted: number): Promise<Lease> {
    this.leases++;
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
});
