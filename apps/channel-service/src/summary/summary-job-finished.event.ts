/**
 * How a summary job ended: every step committed; every step committed but the model failed, so a
 * plain `llm` channel's steps were committed degraded (the state with the heuristic report); or a
 * step failed (the job will be retried).
 */
export type SummaryJobOutcome = 'success' | 'degraded' | 'failure';

/** Tier label when the job committed no step (e.g. it failed on its first chunk). */
export const NO_TIER = 'none';

/** Emitted by the job runner when a job ends, for metrics and observers. */
export class SummaryJobFinishedEvent {
  static readonly NAME = 'summary.job.finished';
  constructor(
    readonly channelId: string,
    readonly channelName: string,
    readonly outcome: SummaryJobOutcome,
    /** The `tier` annotation of the last committed step (`verbatim`, `grouped`, `synthesised`, …) or NO_TIER. */
    readonly tier: string,
    readonly durationSeconds: number,
    /** Steps (chunks) committed by this job. */
    readonly steps: number,
  ) {}
}
