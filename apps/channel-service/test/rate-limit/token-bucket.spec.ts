import { TokenBucket } from '../../src/rate-limit/token-bucket';

describe('TokenBucket', () => {
  it('allows a burst of `capacity` requests at once, then refuses', () => {
    const bucket = new TokenBucket(10, 5, 0);
    const results = Array.from({ length: 6 }, () => bucket.take(0));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, true, true, false]);
    expect(results[4].remaining).toBe(0);
  });

  it('says how many whole seconds until the next token (at least 1)', () => {
    const slow = new TokenBucket(0.25, 1, 0);
    slow.take(0);
    expect(slow.take(0)).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 4 });
    const fast = new TokenBucket(100, 1, 0);
    fast.take(0);
    expect(fast.take(0).retryAfterSeconds).toBe(1);
  });

  it('refills at the configured rate, never beyond capacity', () => {
    const bucket = new TokenBucket(2, 3, 0);
    for (let i = 0; i < 3; i++) bucket.take(0);
    expect(bucket.take(0).allowed).toBe(false);
    expect(bucket.take(500).allowed).toBe(true); // 0.5 s × 2/s = 1 token
    expect(bucket.take(500).allowed).toBe(false);
    expect(bucket.isFull(60_000)).toBe(true);
    expect([0, 1, 2, 3].map(() => bucket.take(60_000).allowed)).toEqual([true, true, true, false]);
  });

  it('ignores a clock that goes backwards', () => {
    const bucket = new TokenBucket(1, 1, 1_000);
    bucket.take(1_000);
    expect(bucket.take(0).allowed).toBe(false);
  });
});
