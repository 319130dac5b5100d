/**
 * An event at some level of a hierarchy (level 0: raw items such as messages; level 1: their
 * summaries; …). `key` groups related events (a channel, a thread, a task).
 */
export interface LevelEvent<T> {
  readonly key: string;
  readonly level: string | number;
  /** When it happened: a Date or epoch milliseconds. */
  readonly at: Date | number;
  readonly payload: T;
}

/** A time given as a Date or epoch milliseconds, in epoch milliseconds. */
export function toEpochMs(at: Date | number): number {
  return typeof at === 'number' ? at : at.getTime();
}
