import { SummaryResult } from '@qhorus/api';
import { EventAccumulator } from './event-accumulator';
import { LevelEvent } from './level-event';
import { Summariser } from './summariser';
import { WindowPolicy } from './window-policy';

export interface SummarisationRunnerOptions<T> {
  summariser: Summariser<LevelEvent<T>>;
  policy: WindowPolicy;
  /** Receives each new result with the batch it covers. */
  onSummary: (result: SummaryResult, batch: readonly LevelEvent<T>[]) => void;
  /** Receives a summariser failure (or a throwing onSummary) with the batch concerned. */
  onFailure?: (error: unknown, batch: readonly LevelEvent<T>[]) => void;
  /** The result to continue from (e.g. restored from storage); default none. */
  previous?: SummaryResult | null;
}

/**
 * The pipeline path's running summary: collects events, and when the window is full (on tick)
 * or on demand (flush) summarises the batch from the previous result and publishes it.
 *
 * Failures never reject tick/flush and never publish: the previous result is kept and the
 * failed batch is put back in front of the accumulator, so nothing is lost and the next flush
 * (or the next tick that finds the window full, which it still is) retries it together with
 * anything collected since. Flushes are serialised so each step continues from the last result.
 * If onSummary throws, the result is still kept (the summariser did succeed) and the error goes
 * to onFailure.
 */
export class SummarisationRunner<T> {
  private readonly accumulator: EventAccumulator<T>;
  private previous: SummaryResult | null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SummarisationRunnerOptions<T>) {
    this.accumulator = new EventAccumulator<T>(options.policy);
    this.previous = options.previous ?? null;
  }

  collect(event: LevelEvent<T>): void {
    this.accumulator.add(event);
  }

  /** Events collected and not yet summarised. */
  get pending(): number {
    return this.accumulator.size;
  }

  /** The last published result (or the initial one). */
  get current(): SummaryResult | null {
    return this.previous;
  }

  /** Flushes if the window policy says the window is full at `now`; true when published. */
  tick(now: Date | number): Promise<boolean> {
    return this.serially(() => (this.accumulator.isFull(now) ? this.run() : Promise.resolve(false)));
  }

  /** Summarises whatever is collected, full window or not; true when published. */
  flush(): Promise<boolean> {
    return this.serially(() => this.run());
  }

  private serially(step: () => Promise<boolean>): Promise<boolean> {
    const next = this.chain.then(step);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async run(): Promise<boolean> {
    const batch = this.accumulator.drain();
    if (batch.length === 0) return false;
    let result: SummaryResult;
    try {
      result = await this.options.summariser.summarise(batch, this.previous);
    } catch (error) {
      this.accumulator.restore(batch);
      this.report(error, batch);
      return false;
    }
    this.previous = result;
    try {
      this.options.onSummary(result, batch);
    } catch (error) {
      this.report(error, batch);
    }
    return true;
  }

  private report(error: unknown, batch: readonly LevelEvent<T>[]): void {
    try {
      this.options.onFailure?.(error, batch);
    } catch {
      // A throwing failure callback has nowhere left to report to; tick/flush must still complete.
    }
  }
}
