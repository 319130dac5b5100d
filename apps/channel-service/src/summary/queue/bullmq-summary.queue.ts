import { Logger } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { withTimeout } from '../../common/with-timeout';
import { RetryPolicy, SummaryJob, SummaryJobHandler, SummaryQueue, summaryJobKey } from './summary-queue';

export const SUMMARY_QUEUE_NAME = 'channel-summary';
const SUMMARY_JOB_NAME = 'summarise';
/** Failed jobs kept for inspection. */
const KEEP_FAILED_JOBS = 1000;
/**
 * A job whose channel is being summarised by another process (a job BullMQ judged stalled while
 * its first worker still runs it, or one handed back at shutdown while the old process exits)
 * waits this long and tries again, without using up an attempt.
 */
export const BUSY_CHANNEL_RETRY_MS = 1_000;

type SummaryJobData = SummaryJob;

export interface BullmqQueueOptions {
  redisUrl: string;
  prefix: string;
  retry: RetryPolicy;
  concurrency: number;
  /** BullMQ lockDuration: a worker that stops renewing its job's lock (crashed, frozen) loses the job after this long. */
  lockMs: number;
  /** BullMQ stalledInterval: how often workers look for jobs whose lock expired and move them back to waiting. */
  stalledCheckMs: number;
}

/**
 * BullMQ driver. One job per channel (or thread) via `deduplication` keyed by summaryJobKey; with
 * `keepLastIfActive`, a trigger that arrives while the channel's job runs is kept and becomes
 * the next job when this one ends, so it is never lost and never runs in parallel.
 */
export class BullmqSummaryQueue extends SummaryQueue {
  private readonly logger = new Logger(BullmqSummaryQueue.name);
  private readonly producerConnection: IORedis;
  private readonly queue: Queue<SummaryJobData>;
  private worker: Worker<SummaryJobData> | null = null;
  /** Jobs this worker is running, with the lock token that lets it hand them back at shutdown. */
  private readonly active = new Map<string, { job: Job<SummaryJobData>; token: string }>();
  private workerConnection: IORedis | null = null;

  constructor(private readonly options: BullmqQueueOptions) {
    super();
    // Producers give up quickly when Redis is down (one retry): the post has already been
    // committed to Postgres, and the sweep re-derives the trigger later. (BullMQ's Queue does
    // not work with enableOfflineQueue: false on a shared connection, so the retry bound is
    // how a producer fails fast.)
    this.producerConnection = new IORedis(options.redisUrl, { maxRetriesPerRequest: 1 });
    this.producerConnection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis producer connection error'));
    this.queue = new Queue<SummaryJobData>(SUMMARY_QUEUE_NAME, {
      connection: this.producerConnection,
      prefix: options.prefix,
      skipWaitingForReady: true,
    });
    this.queue.on('error', (err) => this.logger.debug({ err: err.message }, 'summary queue error'));
  }

  async enqueueJob(job: SummaryJob): Promise<boolean> {
    try {
      await this.queue.add(
        SUMMARY_JOB_NAME,
        job,
        {
          deduplication: { id: summaryJobKey(job), keepLastIfActive: true },
          attempts: this.options.retry.attempts,
          backoff: { type: 'exponential', delay: this.options.retry.backoffMs },
          removeOnComplete: true,
          removeOnFail: KEEP_FAILED_JOBS,
        },
      );
      return true;
    } catch (err) {
      this.logger.warn({ ...job, err: (err as Error).message }, 'could not enqueue summary job; the sweep will retry');
      return false;
    }
  }

  async forget(jobs: readonly SummaryJob[]): Promise<void> {
    for (const job of jobs) {
      const key = summaryJobKey(job);
      try {
        const id = await this.queue.getDeduplicationJobId(key);
        const queued = id ? await this.queue.getJob(id) : undefined;
        // A running job is locked and refuses removal: it finds its channel gone and ends.
        if (queued && !(await queued.isActive())) {
          await queued.remove();
          await this.queue.removeDeduplicationKey(key);
        }
      } catch (err) {
        this.logger.warn({ ...job, err: (err as Error).message }, 'could not remove a summary job; it finds nothing due when it runs');
      }
    }
  }

  async startWorker(handler: SummaryJobHandler): Promise<void> {
    // Workers block on Redis and must never give up on a command.
    this.workerConnection = new IORedis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis worker connection error'));
    this.worker = new Worker<SummaryJobData>(SUMMARY_QUEUE_NAME, (job, token) => this.run(job, token!, handler), {
      connection: this.workerConnection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
      lockDuration: this.options.lockMs,
      stalledInterval: this.options.stalledCheckMs,
    });
    this.worker.on('error', (err) => this.logger.debug({ err: err.message }, 'summary worker error'));
    this.worker.on('failed', (job, err) =>
      this.logger.warn({ channelId: job?.data.channelId, correlationId: job?.data.correlationId, attempt: job?.attemptsMade, err: err.message }, 'summary job attempt failed'),
    );
  }

  private async run(job: Job<SummaryJobData>, token: string, handler: SummaryJobHandler): Promise<void> {
    this.active.set(job.id!, { job, token });
    try {
      // attemptsMade: failed attempts so far (a busy channel's delay is not one).
      if ((await handler(job.data, job.attemptsMade + 1)) === 'busy') {
        await job.moveToDelayed(Date.now() + BUSY_CHANNEL_RETRY_MS, token);
        throw new DelayedError(); // tells BullMQ the job was moved, not finished
      }
    } finally {
      this.active.delete(job.id!);
    }
  }

  async close(graceMs: number): Promise<void> {
    // Drain first: pause() stops taking jobs and waits for the active ones; past the grace period,
    // move each unfinished job back to waiting (another worker takes it at once instead of after
    // the lock expires and a stalled check runs), then force-close. (Not close() under the timeout:
    // BullMQ memoises the first close(), so a later close(true) would return that same promise,
    // still waiting for the hung job.)
    if (this.worker) {
      const worker = this.worker;
      try {
        await withTimeout(worker.pause(), graceMs, 'draining the summary worker');
        await worker.close();
      } catch {
        this.logger.warn({ graceMs, jobs: this.active.size }, 'summary jobs still running at shutdown; handing them back');
        await Promise.all([...this.active.values()].map(({ job, token }) => this.handBack(job, token)));
        await worker.close(true);
      }
    }
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.producerConnection.disconnect();
  }

  /** Back to waiting, releasing our lock (if Redis is unreachable, the stalled check does it later). */
  private async handBack(job: Job<SummaryJobData>, token: string): Promise<void> {
    try {
      await job.moveToWait(token);
    } catch (err) {
      this.logger.warn({ channelId: job.data.channelId, correlationId: job.data.correlationId, err: (err as Error).message }, 'could not hand a summary job back; it is taken over once its lock expires');
    }
  }

  async problem(): Promise<string | null> {
    try {
      const answer = await this.producerConnection.ping();
      return answer === 'PONG' ? null : `Redis answered PING with ${answer}`;
    } catch (err) {
      return (err as Error).message;
    }
  }
}
