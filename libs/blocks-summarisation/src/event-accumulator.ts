import { LevelEvent, toEpochMs } from './level-event';
import { WindowPolicy } from './window-policy';

/** Collects events for the next batch; the window policy says when the batch is ready. */
export class EventAccumulator<T> {
  private events: LevelEvent<T>[] = [];

  constructor(private readonly policy: WindowPolicy) {}

  add(event: LevelEvent<T>): void {
    this.events.push(event);
  }

  get size(): number {
    return this.events.length;
  }

  /** The earliest `at` held (events may arrive out of time order), or null when empty. */
  get oldestAt(): number | null {
    if (this.events.length === 0) return null;
    // A loop, not Math.min(...spread), so a very large window cannot overflow the call stack.
    let oldest = Infinity;
    for (const event of this.events) oldest = Math.min(oldest, toEpochMs(event.at));
    return oldest;
  }

  isFull(now: Date | number): boolean {
    return this.policy.isFull(this.size, this.oldestAt, now);
  }

  /** Takes every held event, in arrival order, and empties the accumulator. */
  drain(): LevelEvent<T>[] {
    const drained = this.events;
    this.events = [];
    return drained;
  }

  /** Puts a batch back in front of anything collected since, so arrival order is preserved. */
  restore(batch: readonly LevelEvent<T>[]): void {
    this.events = [...batch, ...this.events];
  }
}
