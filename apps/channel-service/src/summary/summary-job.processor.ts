import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ClosedThreadSummariser } from '../threads/closed-thread-summariser';
import { SummaryJob, SummaryQueue } from './queue/summary-queue';
import { SummaryJobRunner } from './summary-job.runner';
import { SummaryRepository } from './summary.repository';

/**
 * The queue's consumer (worker roles). Kept apart from the trigger listener: the listener
 * decides *whether* a channel needs a job; this runs it and re-checks the backlog afterwards,
 * so a trigger that raced the end of the job is never lost.
 */
@Injectable()
export class SummaryJobProcessor implements OnApplicationBootstrap {
  constructor(
    private readonly queue: SummaryQueue,
    private readonly runner: SummaryJobRunner,
    private readonly summaries: SummaryRepository,
    private readonly threads: ClosedThreadSummariser,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.runsWorker) await this.queue.startWorker((job, attempt) => this.run(job, attempt));
  }

  /** A channel's summary slot, or one closed thread's summary. */
  async run(job: SummaryJob, attempt = 1): Promise<void> {
    if (job.correlationId === undefined) return this.process(job.channelId, attempt);
    if (await this.threads.run(job.channelId, job.correlationId)) await this.queue.enqueueThread(job.channelId, job.correlationId);
  }

  /**
   * Runs only if the channel is still due (a kept trigger may find it already covered) and, for
   * a first attempt, not in its failure backoff: whatever triggered the job (a post, a kept
   * trigger, the time trigger, the sweep), a summariser that just failed is not called again
   * until the backoff has passed. Retries of this job and a manual refresh pass.
   */
  async process(channelId: string, attempt = 1): Promise<void> {
    const backoff = { ms: this.config.summaryFailureBackoffMs, retry: attempt > 1 };
    const due = await this.summaries.findDue(channelId, this.config.QHORUS_SUMMARY_CHUNK_SIZE, backoff);
    if (!due) return;
    // Due again (posts kept coming): the last commit says so; without a commit, ask.
    const dueAgain = (await this.runner.run(due)) ?? (await this.summaries.isDue(channelId));
    if (dueAgain) await this.queue.enqueue(channelId);
  }
}
