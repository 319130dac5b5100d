import { Logger } from '@nestjs/common';
import { backoffDelay, RetryPolicy, SummaryJob, SummaryJobHandler, SummaryQueue, summaryJobKey } from './summary-queue';

interface ChannelState {
  job: SummaryJob;
  running: boolean;
  /** A trigger arrived while running: run once more afterwards. */
  rerun: boolean;
}

/**
 * Jobs in this process, with the same per-channel guarantees as the BullMQ driver: one job per
 * channel (or thread, keyed by summaryJobKey) at a time, triggers during a run are kept, failures retry with exponential backoff,
 * and at most `concurrency` channels run at once.
 */
export class InProcessSummaryQueue extends SummaryQueue {
  private readonly logger = new Logger(InProcessSummaryQueue.name);
  private readonly channels = new Map<string, ChannelState>();
  private readonly waiting: string[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Retry backoffs in progress: close() cuts them short, so no timer outlives the queue. */
  private readonly backoffs = new Set<() => void>();
  private handler: SummaryJobHandler | null = null;
  private active = 0;
  private closed = false;

  constructor(
    private readonly retry: RetryPolicy,
    private readonly concurrency: number,
  ) {
    super();
  }

  async enqueueJob(job: SummaryJob): Promise<boolean> {
    if (this.closed) return false;
    const key = summaryJobKey(job);
    const state = this.channels.get(key);
    if (state) {
      if (state.running) state.rerun = true;
      return true; // already queued or running: deduplicated
    }
    this.channels.set(key, { job, running: false, rerun: false });
    this.waiting.push(key);
    this.pump();
    return true;
  }

  async forget(jobs: readonly SummaryJob[]): Promise<void> {
    for (const job of jobs) {
      const key = summaryJobKey(job);
      const state = this.channels.get(key);
      if (!state) continue;
      if (state.running) {
        state.rerun = false; // it ends after this run
        continue;
      }
      this.channels.delete(key);
      const at = this.waiting.indexOf(key);
      if (at >= 0) this.waiting.splice(at, 1);
    }
  }

  /** Keys of the jobs queued or running (tests: a deleted channel's jobs are gone). */
  get queuedKeys(): string[] {
    return [...this.channels.keys()];
  }

  async startWorker(handler: SummaryJobHandler): Promise<void> {
    this.handler = handler;
    this.pump();
  }

  async close(graceMs: number): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    for (const endBackoff of [...this.backoffs]) endBackoff();
    const drained = Promise.allSettled([...this.inFlight]).then(() => true);
    const finished = await Promise.race([drained, new Promise<false>((r) => setTimeout(() => r(false), graceMs).unref())]);
    if (!finished) this.logger.warn({ graceMs }, 'summary jobs still running at shutdown; the sweep will redo them');
  }

  async problem(): Promise<string | null> {
    return this.closed ? 'the in-process queue is closed' : null;
  }

  private pump(): void {
    while (this.handler && !this.closed && this.active < this.concurrency && this.waiting.length > 0) {
      const key = this.waiting.shift()!;
      this.active++;
      const run = this.runChannel(key).finally(() => {
        this.active--;
        this.inFlight.delete(run);
        this.pump();
      });
      this.inFlight.add(run);
    }
  }

  private async runChannel(key: string): Promise<void> {
    const state = this.channels.get(key)!;
    state.running = true;
    do {
      state.rerun = false;
      await this.runWithRetries(state.job);
    } while (state.rerun && !this.closed);
    this.channels.delete(key);
  }

  private async runWithRetries(job: SummaryJob): Promise<void> {
    for (let attempt = 1; attempt <= this.retry.attempts; attempt++) {
      try {
        await this.handler!(job, attempt);
        return;
      } catch (err) {
        if (attempt === this.retry.attempts || this.closed) {
          this.logger.warn({ ...job, attempt, err }, 'summary job failed; giving up until the next trigger');
          return;
        }
        await this.backoff(backoffDelay(this.retry, attempt));
        if (this.closed) return; // shut down during the backoff: the database may be gone; the sweep redoes it at next start
      }
    }
  }

  /** Waits `ms` before a retry, or until close(). */
  private backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.backoffs.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.backoffs.add(end);
    });
  }
}
