import { ChannelInfo } from './channel';
import { Message } from './message';
import { SummaryResult } from './summary-result';

/** Everything a hook needs to produce the next summary of a channel. */
export interface SummaryUpdateContext {
  readonly channel: ChannelInfo;
  /** The stored result before this step, or null before the first summary. */
  readonly previous: SummaryResult | null;
  /** The watermark of `previous`: every message with seq ≤ this is already summarised. */
  readonly coversThroughSeq: number;
  /** The batch since the last summary, in seq order. */
  readonly messages: readonly Message[];
  /**
   * Aborted when the job gives up on this call (its timeout): stop work and reject. The job waits
   * a bounded time for the call to settle before it retries, so honouring it ends the call early
   * and never lets a retry overlap it. Absent when the caller sets no deadline.
   */
  readonly signal?: AbortSignal;
}

/** The summary slot's extension point: called by the background job for each batch. */
export interface SummaryUpdateHook {
  update(ctx: SummaryUpdateContext): Promise<SummaryResult>;
}
