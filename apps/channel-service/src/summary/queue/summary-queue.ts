/**
 * Runs one summary job for a channel. Rejecting means "failed; retry with backoff". The handler
 * checks the channel is still due (Postgres decides: threshold, time trigger or a recorded
 * refresh), so a trigger kept while a job ran does not cause a tiny extra step. `attempt` counts
 * from 1; a retry (> 1) was already spaced by the queue's backoff, so the channel's failure
 * backoff does not hold it back.
 */
export type SummaryJobHandler = (channelId: string, attempt: number) => Promise<void>;

/**
 * The summary job queue, per channel: at most one job queued or running per channel, and a
 * trigger that arrives while one runs is kept (it runs once more afterwards). Two drivers:
 * BullMQ on Redis, and in-process when no Redis is configured.
 */
export abstract class SummaryQueue {
  /** Asks for a summary job for the channel. Never throws: a lost trigger is recovered by the sweep. */
  abstract enqueue(channelId: string): Promise<boolean>;
  /** Starts consuming jobs with this handler (worker roles only). */
  abstract startWorker(handler: SummaryJobHandler): Promise<void>;
  /**
   * Lets in-flight jobs finish for up to `graceMs`; jobs still running then are handed back
   * (BullMQ: left to be picked up again as stalled; in-process: re-derived by the sweep at the
   * next start, since Postgres still shows the backlog). Then releases connections.
   */
  abstract close(graceMs: number): Promise<void>;
  /** True when the queue's backing store answers (for health). */
  abstract isHealthy(): Promise<boolean>;
}

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/** Exponential backoff: backoffMs, 2×, 4×, … */
export const backoffDelay = (policy: RetryPolicy, attempt: number): number => policy.backoffMs * 2 ** (attempt - 1);
