import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { SummaryConfig } from '../config/slices/summary-config';
import { ClosedThreadSummariser } from './jobs/closed-thread-summariser';
import { inSpan, linksFrom } from '../telemetry/spans';
import { ATTEMPT_ATTRIBUTE, CHANNEL_ID_ATTRIBUTE, SUMMARY_JOB_SPAN, THREAD_SUMMARY_JOB_SPAN } from '../telemetry/job-spans';
import { ChannelJobLock } from './channel-job-lock';
import { SummaryJob, SummaryJobOutcome, SummaryQueue, summaryJobKey } from './queue/summary-queue';
import { SummaryJobRunner } from './jobs/summary-job.runner';
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
    private readonly config: SummaryConfig,
    private readonly locks: ChannelJobLock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.runsWorker) await this.queue.startWorker((job, attempt) => this.run(job, attempt));
  }

  /**
   * A channel's summary slot, or one closed thread's summary. Thread jobs take the advisory lock
   * too, keyed by the thread (summaryJobKey: `channelId:correlationId`, never equal to a channel
   * id), so they never wait for their channel's slot job (they write thread_summaries, not the
   * channel's summary) but two processes never summarise the same thread at once: queue
   * deduplication is per Redis (or per process without one), and BullMQ may hand a job it judged
   * stalled to a second worker while the first still runs it; the lock costs one round trip and
   * saves a second summariser (LLM) call.
   */
  run(job: SummaryJob, attempt = 1): Promise<SummaryJobOutcome> {
    const name = job.correlationId === undefined ? SUMMARY_JOB_SPAN : THREAD_SUMMARY_JOB_SPAN;
    const attributes = { [CHANNEL_ID_ATTRIBUTE]: job.channelId, [ATTEMPT_ATTRIBUTE]: attempt };
    return inSpan(name, attributes, () => this.runJob(job, attempt), { links: linksFrom([job.trace]) });
  }

  private async runJob(job: SummaryJob, attempt: number): Promise<SummaryJobOutcome> {
    if (job.correlationId === undefined) return this.process(job.channelId, attempt);
    const { channelId, correlationId } = job;
    const held = await this.locks.whileHeld(summaryJobKey(job), () => this.threads.run(channelId, correlationId));
    if (held.busy) return 'busy';
    if (held.value) await this.queue.enqueueThread(channelId, correlationId);
    return 'done';
  }

  /**
   * Runs only if the channel is still due (a kept trigger may find it already covered), only if
   * no other process is running the channel's job (then that one re-checks when it ends) and, for
   * a first attempt, not in its failure backoff: whatever triggered the job (a post, a kept
   * trigger, the time trigger, the sweep), a summariser that just failed is not called again
   * until the backoff has passed. Retries of this job and a manual refresh pass.
   */
  async process(channelId: string, attempt = 1): Promise<SummaryJobOutcome> {
    const held = await this.locks.whileHeld(channelId, () => this.runIfDue(channelId, attempt));
    if (held.busy) return 'busy';
    if (held.value) await this.queue.enqueue(channelId);
    return 'done';
  }

  /** Returns whether the channel is due again afterwards. */
  private async runIfDue(channelId: string, attempt: number): Promise<boolean> {
    const backoff = { ms: this.config.failureBackoffMs, retry: attempt > 1 };
    const due = await this.summaries.findDue(channelId, this.config.chunkSize, backoff);
    if (!due) return false;
    // Due again (posts kept coming): the last commit says so; without a commit, ask.
    return (await this.runner.run(due)) ?? (await this.summaries.isDue(channelId));
  }
}
