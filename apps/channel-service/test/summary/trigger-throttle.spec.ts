import { TriggerThrottle } from '../../src/summary/trigger-throttle';

describe('TriggerThrottle', () => {
  const THRESHOLD = 20;
  const RETRIGGER_MS = 200;
  let now = 0;
  const throttle = () => new TriggerThrottle(RETRIGGER_MS, () => now);
  beforeEach(() => (now = 0));

  it('never enqueues below the threshold, and always at the crossing', () => {
    const t = throttle();
    expect([1, 10, 19].map((b) => t.shouldEnqueue('c', b, THRESHOLD))).toEqual([false, false, false]);
    expect(t.shouldEnqueue('c', THRESHOLD, THRESHOLD)).toBe(true);
  });

  it('spares the queue on every post past the threshold while the job catches up', () => {
    const t = throttle();
    const asked = [20, 21, 22, 23, 24, 25].filter((b) => t.shouldEnqueue('c', b, THRESHOLD));
    expect(asked).toEqual([20]);
  });

  it('asks again at each multiple of the threshold, and once the retrigger interval has passed', () => {
    const t = throttle();
    expect(t.shouldEnqueue('c', 20, THRESHOLD)).toBe(true);
    expect(t.shouldEnqueue('c', 40, THRESHOLD)).toBe(true); // a backlog of two thresholds: never held back
    expect(t.shouldEnqueue('c', 41, THRESHOLD)).toBe(false);
    now = RETRIGGER_MS;
    expect(t.shouldEnqueue('c', 42, THRESHOLD)).toBe(true); // e.g. the post right after a job committed
  });

  it('keeps channels apart', () => {
    const t = throttle();
    expect(t.shouldEnqueue('a', 21, THRESHOLD)).toBe(true);
    expect(t.shouldEnqueue('b', 21, THRESHOLD)).toBe(true);
    expect(t.shouldEnqueue('a', 22, THRESHOLD)).toBe(false);
  });

  it('with threshold 1 every post is a crossing', () => {
    const t = throttle();
    expect([1, 2, 3].map((b) => t.shouldEnqueue('c', b, 1))).toEqual([true, true, true]);
  });

  describe('with a token threshold', () => {
    const TOKENS = 100;
    const post = (backlog: number, tokens: number, added: number, threshold: number | null = TOKENS) => ({
      backlog,
      threshold: THRESHOLD,
      tokens: { backlog: tokens, threshold, added },
    });

    it('triggers on whichever threshold is reached first', () => {
      const t = throttle();
      expect(t.shouldEnqueue('c', post(3, 99, 30))).toBe(false);
      expect(t.shouldEnqueue('c', post(4, 130, 31))).toBe(true); // tokens first, 4 messages of 20
      expect(throttle().shouldEnqueue('c', post(20, 50, 2))).toBe(true); // messages first
    });

    it('never triggers by tokens when the channel has no token threshold', () => {
      expect(throttle().shouldEnqueue('c', post(3, 10_000, 5_000, null))).toBe(false);
    });

    it('asks again at once when a post crosses a multiple of the token threshold, otherwise after the retrigger interval', () => {
      const t = throttle();
      expect(t.shouldEnqueue('c', post(2, 120, 60))).toBe(true);
      expect(t.shouldEnqueue('c', post(3, 150, 30))).toBe(false); // still within the second hundred
      expect(t.shouldEnqueue('c', post(4, 210, 60))).toBe(true); // crossed 200
      now = RETRIGGER_MS;
      expect(t.shouldEnqueue('c', post(5, 220, 10))).toBe(true);
    });
  });
});
