import { EventStreamBus } from '@qhorus/blocks-summarisation';

describe('EventStreamBus', () => {
  it('delivers synchronously, in subscription order', () => {
    const bus = new EventStreamBus<number>();
    const seen: string[] = [];
    bus.subscribe((n) => seen.push(`a${n}`));
    bus.subscribe((n) => seen.push(`b${n}`));
    bus.publish(1);
    expect(seen).toEqual(['a1', 'b1']);
  });

  it('unsubscribe stops delivery and is idempotent', () => {
    const bus = new EventStreamBus<number>();
    const seen: number[] = [];
    const unsubscribe = bus.subscribe((n) => seen.push(n));
    bus.publish(1);
    unsubscribe();
    unsubscribe();
    bus.publish(2);
    expect(seen).toEqual([1]);
    expect(bus.subscriberCount).toBe(0);
  });

  it('a throwing subscriber does not break the others and is reported', () => {
    const errors: unknown[] = [];
    const bus = new EventStreamBus<number>((error) => errors.push(error));
    const seen: number[] = [];
    bus.subscribe(() => {
      throw new Error('bad subscriber');
    });
    bus.subscribe((n) => seen.push(n));
    bus.publish(7);
    expect(seen).toEqual([7]);
    expect(errors).toEqual([new Error('bad subscriber')]);
  });

  it('the same function subscribed twice is two subscriptions', () => {
    const bus = new EventStreamBus<number>();
    const seen: number[] = [];
    const listener = (n: number) => seen.push(n);
    const first = bus.subscribe(listener);
    bus.subscribe(listener);
    bus.publish(1);
    first();
    bus.publish(2);
    expect(seen).toEqual([1, 1, 2]);
  });

  it('delivers to the subscribers present when publish starts', () => {
    const bus = new EventStreamBus<number>();
    const seen: string[] = [];
    bus.subscribe(() => {
      seen.push('first');
      bus.subscribe(() => seen.push('added during publish'));
    });
    bus.publish(1);
    expect(seen).toEqual(['first']);
  });
});
