import { currentTraceCarrier } from '../../telemetry/spans';
import { threadKey } from '../../threads/thread-key';

/** What a job summarises: a channel's summary slot, or (with a correlation id) one closed thread of it. */
export interface SummaryJob {
  channelId: string;
  correlationId?: string;
  /** The trace context of what asked for the job (a post), so the job's span links to it (DESIGN §13). */
  trace?: Record<string, string>;
}

/** The job's identity for deduplication: the channel id, or `channelId:correlationId` for a thread (channel ids have no ':'). */
export function summaryJobKey(job: SummaryJob): string {
  return job.correlationId === undefined ? job.channelId : threadKey(job.channelId, job.correlationId);
}

/**
 * What a job run came to: `done` (ran, or found nothing due), or `busy`: another process is
 * running the channel's job right now (ChannelJobLock), so this one did nothing; the queue runs
 * it again later without using up an attempt.
 */
export type SummaryJobOutcome = 'done' | 'busy';

/**
 * Runs one summary job. Rejecting means "failed; retry with backoff". The handler checks the
 * channel (or thread) is still due (Postgres decides: threshold, time trigger or a recorded
 * refresh; for a thread, the thread index), so a trigger kept while a job ran does not cause a
 * tiny extra step. `attempt` counts from 1; a retry (> 1) was already spaced by the queue's
 * backoff, so the channel's failure backoff does not hold it back.
 */
export type SummaryJobHandler = (job: SummaryJob, attempt: number) => Promise<SummaryJobOutcome>;

/**
 * The summary job queue: at most one job queued or running per channel (and per thread), and a
 * trigger that arrives while one runs is kept (it runs once more afterwards). Two drivers:
 * BullMQ on Redis, and in-process when no Redis is configured.
 */
export abstract class SummaryQueue {
  /** Asks for a job. Never throws: a lost trigger is recovered by the sweep. */
  abstract enqueueJob(job: SummaryJob): Promise<boolean>;

  /** Asks for a summary job for the channel's summary slot. */
  enqueue(channelId: string): Promise<boolean> {
    return this.enqueueJob({ channelId, trace: currentTraceCarrier() });
  }

  /** Asks for a summary of one closed thread. */
  enqueueThread(channelId: string, correlationId: string): Promise<boolean> {
    return this.enqueueJob({ channelId, correlationId, trace: currentTraceCarrier() });
  }

  /**
   * Removes these jobs if queued and not running (a deleted channel's): a running one ends by
   * itself when it finds its channel gone. Never throws: a job left behind finds nothing due.
   */
  abstract forget(jobs: readonly SummaryJob[]): Promise<void>;

  /** Starts consuming jobs with this handler (worker roles only). */
  abstract startWorker(handler: SummaryJobHandler): Promise<void>;
  /**
   * Lets in-flight jobs finish for up to `graceMs`; jobs still running then are handed back
   * (BullMQ: moved back to waiting, so another worker takes them at once; in-process: re-derived
   * by the sweep of another instance or at the next start, since Postgres still shows the backlog).
   * Then releases connections.
   */
  abstract close(graceMs: number): Promise<void>;
  /** Null when the queue's backing store answers (for health); else why not, in the driver's words (for the log). */
  abstract problem(): Promise<string | null>;
}

export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

/** Exponential backoff: backoffMs, 2×, 4×, … */
export const backoffDelay = (policy: RetryPolicy, attempt: number): number => policy.backoffMs * 2 ** (attempt - 1);
