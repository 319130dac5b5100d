import { toEpochMs } from './level-event';

export interface WindowPolicyOptions {
  /** The window is full once its oldest event is at least this old (ms). */
  maxAgeMs?: number;
  /** The window is full once it holds at least this many events. */
  maxCount?: number;
}

/**
 * When a batch of events is ready to summarise. Bounds are inclusive: full when
 * `count ≥ maxCount` or `now − oldestAt ≥ maxAgeMs`. An empty window is never full.
 */
export class WindowPolicy {
  readonly maxAgeMs: number | null;
  readonly maxCount: number | null;

  constructor(options: WindowPolicyOptions) {
    const { maxAgeMs, maxCount } = options;
    if (maxAgeMs === undefined && maxCount === undefined) {
      throw new RangeError('WindowPolicy needs maxAgeMs and/or maxCount');
    }
    if (maxAgeMs !== undefined && !(maxAgeMs > 0)) throw new RangeError(`WindowPolicy maxAgeMs must be positive (got ${maxAgeMs})`);
    if (maxCount !== undefined && !(Number.isInteger(maxCount) && maxCount > 0)) {
      throw new RangeError(`WindowPolicy maxCount must be a positive integer (got ${maxCount})`);
    }
    this.maxAgeMs = maxAgeMs ?? null;
    this.maxCount = maxCount ?? null;
  }

  isFull(count: number, oldestAt: Date | number | null, now: Date | number): boolean {
    if (count <= 0) return false;
    if (this.maxCount !== null && count >= this.maxCount) return true;
    return this.maxAgeMs !== null && oldestAt !== null && toEpochMs(now) - toEpochMs(oldestAt) >= this.maxAgeMs;
  }
}
