import { IDLE_SWEEP_EVERY_MS, RateLimiter } from '../../src/rate-limit/rate-limiter';

describe('RateLimiter', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 0));

  it('keeps one bucket per principal: one agent exhausting its burst does not limit another', () => {
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 2 }, clock);
    expect([1, 2, 3].map(() => limiter.take('alice').allowed)).toEqual([true, true, false]);
    expect(limiter.take('bob').allowed).toBe(true);
  });

  it('drops buckets that have refilled, so idle principals cost no memory', () => {
    const limiter = new RateLimiter({ ratePerSecond: 10, burst: 5 }, clock);
    for (let i = 0; i < 50; i++) limiter.take(`agent-${i}`);
    expect(limiter.tracked).toBe(50);
    now = IDLE_SWEEP_EVERY_MS + 1;
    limiter.take('fresh');
    expect(limiter.tracked).toBe(1);
  });

  it('keeps a bucket that is still refilling across the sweep, so the limit cannot be reset by waiting for it', () => {
    const limiter = new RateLimiter({ ratePerSecond: 0.001, burst: 1 }, clock);
    limiter.take('alice');
    now = IDLE_SWEEP_EVERY_MS + 1;
    expect(limiter.take('alice').allowed).toBe(false);
  });

  it('never tracks more than its cap, evicting the least recently used', () => {
    const limiter = new RateLimiter({ ratePerSecond: 1, burst: 1 }, clock, 3);
    for (const name of ['a', 'b', 'c']) limiter.take(name);
    limiter.take('a'); // a is now the most recently used
    limiter.take('d'); // evicts b
    expect(limiter.tracked).toBe(3);
    expect(limiter.take('a').allowed).toBe(false);
    expect(limiter.take('c').allowed).toBe(false);
    expect(limiter.take('b').allowed).toBe(true); // b was forgotten: a fresh bucket
  });
});
