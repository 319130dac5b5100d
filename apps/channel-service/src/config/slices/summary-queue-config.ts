import { AppConfig } from '../app-config';

/** summary/queue/: the job queue, BullMQ on Redis or in process. */
export class SummaryQueueConfig {
  /** No Redis: the in-process queue; else BullMQ on `redisUrl`. */
  readonly inProcess: boolean;
  readonly redisUrl: string | undefined;
  readonly prefix: string;
  /** Attempts per job, with the backoff between them. */
  readonly retry: { readonly attempts: number; readonly backoffMs: number };
  /** Jobs run at once per worker process. */
  readonly concurrency: number;
  /** BullMQ's lock per running job, and how often stalled jobs are taken back. */
  readonly lockMs: number;
  readonly stalledCheckMs: number;
  /** How long shutdown waits for running jobs. */
  readonly shutdownTimeoutMs: number;

  constructor(config: AppConfig) {
    this.inProcess = config.inProcessQueue;
    this.redisUrl = config.REDIS_URL;
    this.prefix = config.QHORUS_QUEUE_PREFIX;
    this.retry = { attempts: config.QHORUS_JOB_ATTEMPTS, backoffMs: config.QHORUS_JOB_BACKOFF_MS };
    this.concurrency = config.QHORUS_WORKER_CONCURRENCY;
    this.lockMs = config.QHORUS_JOB_LOCK_MS;
    this.stalledCheckMs = config.QHORUS_JOB_STALLED_CHECK_MS;
    this.shutdownTimeoutMs = config.QHORUS_SHUTDOWN_TIMEOUT_MS;
  }
}
