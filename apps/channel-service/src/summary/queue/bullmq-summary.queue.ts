import { Logger } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { withTimeout } from '../../common/with-timeout';
import { RetryPolicy, SummaryJob, SummaryJobHandler, SummaryQueue, summaryJobKey } from './summary-queue';

export const SUMMARY_QUEUE_NAME = 'channel-summary';
const SUMMARY_JOB_NAME = 'summarise';
/** Failed jobs kept for inspection. */
const KEEP_FAILED_JOBS = 1000;

type SummaryJobData = SummaryJob;

export interface BullmqQueueOptions {
  redisUrl: string;
  prefix: string;
  retry: RetryPolicy;
  concurrency: number;
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

  async startWorker(handler: SummaryJobHandler): Promise<void> {
    // Workers block on Redis and must never give up on a command.
    this.workerConnection = new IORedis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.workerConnection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis worker connection error'));
    this.worker = new Worker<SummaryJobData>(SUMMARY_QUEUE_NAME, (job: Job<SummaryJobData>) => handler(job.data, job.attemptsMade + 1), {
      connection: this.workerConnection,
      prefix: this.options.prefix,
      concurrency: this.options.concurrency,
    });
    this.worker.on('error', (err) => this.logger.debug({ err: err.message }, 'summary worker error'));
    this.worker.on('failed', (job, err) =>
      this.logger.warn({ channelId: job?.data.channelId, correlationId: job?.data.correlationId, attempt: job?.attemptsMade, err: err.message }, 'summary job attempt failed'),
    );
  }

  async close(graceMs: number): Promise<void> {
    // Drain first: pause() stops taking jobs and waits for the active ones; past the grace period,
    // force-close so the unfinished job stays in Redis and another worker takes it over as
    // stalled. (Not close() under the timeout: BullMQ memoises the first close(), so a later
    // close(true) would return that same promise, still waiting for the hung job.)
    if (this.worker) {
      const worker = this.worker;
      try {
        await withTimeout(worker.pause(), graceMs, 'draining the summary worker');
        await worker.close();
      } catch {
        this.logger.warn({ graceMs }, 'summary jobs still running at shutdown; handing them back');
        await worker.close(true);
      }
    }
    await this.queue.close();
    this.workerConnection?.disconnect();
    this.producerConnection.disconnect();
  }

  async isHealthy(): Promise<boolean> {
    try {
      return (await this.producerConnection.ping()) === 'PONG';
    } catch {
      return false;
    }
  }
}
