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
    if (this.config.runsWorker) await this.queue.startWorker((job) => this.run(job));
  }

  /** A channel's summary slot, or one closed thread's summary. */
  async run(job: SummaryJob): Promise<void> {
    if (job.correlationId === undefined) return this.process(job.channelId);
    if (await this.threads.run(job.channelId, job.correlationId)) await this.queue.enqueueThread(job.channelId, job.correlationId);
  }

  /** Runs only if the channel is still due (a kept trigger may find it already covered). */
  async process(channelId: string): Promise<void> {
    const due = await this.summaries.findDue(channelId, this.config.QHORUS_SUMMARY_CHUNK_SIZE);
    if (!due) return;
    // Due again (posts kept coming): the last commit says so; without a commit, ask.
    const dueAgain = (await this.runner.run(due)) ?? (await this.summaries.isDue(channelId));
    if (dueAgain) await this.queue.enqueue(channelId);
  }
}
