import { EventAccumulator, LevelEvent, WindowPolicy } from '@qhorus/blocks-summarisation';

describe('WindowPolicy', () => {
  it('is full at exactly maxCount (inclusive)', () => {
    const policy = new WindowPolicy({ maxCount: 3 });
    expect(policy.isFull(2, 0, 0)).toBe(false);
    expect(policy.isFull(3, 0, 0)).toBe(true);
    expect(policy.isFull(4, 0, 0)).toBe(true);
  });

  it('is full at exactly maxAgeMs (inclusive), with Date or epoch ms', () => {
    const policy = new WindowPolicy({ maxAgeMs: 1_000 });
    expect(policy.isFull(1, 5_000, 5_999)).toBe(false);
    expect(policy.isFull(1, 5_000, 6_000)).toBe(true);
    expect(policy.isFull(1, new Date(5_000), new Date(6_000))).toBe(true);
    expect(policy.isFull(1, new Date(5_000), 5_999)).toBe(false);
  });

  it('is full when either bound is reached', () => {
    const policy = new WindowPolicy({ maxAgeMs: 1_000, maxCount: 10 });
    expect(policy.isFull(10, 0, 1)).toBe(true);
    expect(policy.isFull(1, 0, 1_000)).toBe(true);
    expect(policy.isFull(9, 0, 999)).toBe(false);
  });

  it('is never full when empty or when the age is unknown', () => {
    const policy = new WindowPolicy({ maxAgeMs: 1, maxCount: 1 });
    expect(policy.isFull(0, 0, 1_000_000)).toBe(false);
    expect(new WindowPolicy({ maxAgeMs: 1 }).isFull(5, null, 1_000_000)).toBe(false);
  });

  it.each([
    [{}],
    [{ maxCount: 0 }],
    [{ maxCount: -1 }],
    [{ maxCount: 1.5 }],
    [{ maxAgeMs: 0 }],
    [{ maxAgeMs: -10 }],
    [{ maxAgeMs: Number.NaN }],
    [{ maxAgeMs: 100, maxCount: 0 }],
  ])('rejects %p', (options) => {
    expect(() => new WindowPolicy(options)).toThrow(RangeError);
  });
});

describe('EventAccumulator', () => {
  const event = (n: number, at: number): LevelEvent<number> => ({ key: 'k', level: 0, at, payload: n });

  it('reports full by the policy and drains in arrival order', () => {
    const accumulator = new EventAccumulator<number>(new WindowPolicy({ maxCount: 3 }));
    accumulator.add(event(1, 30));
    accumulator.add(event(2, 10));
    expect(accumulator.isFull(0)).toBe(false);
    accumulator.add(event(3, 20));
    expect(accumulator.isFull(0)).toBe(true);
    expect(accumulator.drain().map((e) => e.payload)).toEqual([1, 2, 3]);
    expect(accumulator.size).toBe(0);
    expect(accumulator.oldestAt).toBeNull();
  });

  it('measures age from the earliest event, even if it arrived late', () => {
    const accumulator = new EventAccumulator<number>(new WindowPolicy({ maxAgeMs: 100 }));
    accumulator.add(event(1, 500));
    accumulator.add(event(2, new Date(450).getTime()));
    expect(accumulator.oldestAt).toBe(450);
    expect(accumulator.isFull(549)).toBe(false);
    expect(accumulator.isFull(550)).toBe(true);
  });

  it('restore puts a batch back in front of newer events', () => {
    const accumulator = new EventAccumulator<number>(new WindowPolicy({ maxCount: 10 }));
    accumulator.add(event(1, 0));
    const batch = accumulator.drain();
    accumulator.add(event(2, 1));
    accumulator.restore(batch);
    expect(accumulator.drain().map((e) => e.payload)).toEqual([1, 2]);
  });
});
