import { SummaryResult } from '@qhorus/api';
import { LevelEvent, toEpochMs } from './level-event';
import { Summariser } from './summariser';

export interface KeyedSummarisationRunnerOptions<T> {
  summariser: Summariser<LevelEvent<T>>;
  /** True when a group is done (e.g. its thread saw a terminal message). */
  isComplete: (events: readonly LevelEvent<T>[], key: string) => boolean;
  /** A group with no event for at least this long (inclusive, on tick) is emitted as stale. */
  maxIdleMs: number;
  onSummary: (key: string, result: SummaryResult, events: readonly LevelEvent<T>[]) => void;
  onFailure?: (key: string, error: unknown, events: readonly LevelEvent<T>[]) => void;
  /** Groups events; default `event.key`. */
  keyOf?: (event: LevelEvent<T>) => string;
}

interface Group<T> {
  events: LevelEvent<T>[];
  lastAt: number;
  complete: boolean;
}

/**
 * One summary per group of events (a thread, a task): groups by key, emits a group's summary
 * when the completion predicate says it is done or when it goes stale, then forgets the key.
 *
 * A group is taken out of the map while it is being summarised, so events arriving meanwhile
 * start a new group. On failure nothing is published and the group is put back (merged with
 * any newer events, still complete or stale), so the next tick retries it; collect and tick
 * never reject.
 */
export class KeyedSummarisationRunner<T> {
  private readonly groups = new Map<string, Group<T>>();
  private readonly keyOf: (event: LevelEvent<T>) => string;

  constructor(private readonly options: KeyedSummarisationRunnerOptions<T>) {
    if (!(options.maxIdleMs > 0)) throw new RangeError(`maxIdleMs must be positive (got ${options.maxIdleMs})`);
    this.keyOf = options.keyOf ?? ((event) => event.key);
  }

  /** Keys with events not yet summarised. */
  get pendingKeys(): string[] {
    return [...this.groups.keys()];
  }

  /** Adds the event to its group; if that completes the group, emits it. True when published. */
  async collect(event: LevelEvent<T>): Promise<boolean> {
    const key = this.keyOf(event);
    const group = this.groups.get(key) ?? { events: [], lastAt: -Infinity, complete: false };
    group.events.push(event);
    group.lastAt = Math.max(group.lastAt, toEpochMs(event.at));
    group.complete = group.complete || this.options.isComplete(group.events, key);
    this.groups.set(key, group);
    return group.complete ? this.emit(key) : false;
  }

  /** Emits every complete or stale group; resolves with the number published. */
  async tick(now: Date | number): Promise<number> {
    const nowMs = toEpochMs(now);
    const due = [...this.groups].filter(([, g]) => g.complete || nowMs - g.lastAt >= this.options.maxIdleMs).map(([key]) => key);
    return this.emitAll(due);
  }

  /** Emits every group now, done or not (e.g. at shutdown); resolves with the number published. */
  flush(): Promise<number> {
    return this.emitAll([...this.groups.keys()]);
  }

  private async emitAll(keys: readonly string[]): Promise<number> {
    const published = await Promise.all(keys.map((key) => this.emit(key)));
    return published.filter(Boolean).length;
  }

  private async emit(key: string): Promise<boolean> {
    const group = this.groups.get(key);
    if (!group) return false; // already being summarised by a concurrent call
    this.groups.delete(key);
    let result: SummaryResult;
    try {
      result = await this.options.summariser.summarise(group.events, null);
    } catch (error) {
      this.putBack(key, group);
      this.report(key, error, group.events);
      return false;
    }
    try {
      this.options.onSummary(key, result, group.events);
    } catch (error) {
      this.report(key, error, group.events);
    }
    return true;
  }

  private putBack(key: string, failed: Group<T>): void {
    const newer = this.groups.get(key);
    if (!newer) {
      this.groups.set(key, failed);
      return;
    }
    this.groups.set(key, {
      events: [...failed.events, ...newer.events],
      lastAt: Math.max(failed.lastAt, newer.lastAt),
      complete: failed.complete || newer.complete,
    });
  }

  private report(key: string, error: unknown, events: readonly LevelEvent<T>[]): void {
    try {
      this.options.onFailure?.(key, error, events);
    } catch {
      // Nowhere left to report; collect/tick must still complete.
    }
  }
}
