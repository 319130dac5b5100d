import { configSlice } from '../config-slice';

/** summary/queue/: the job queue, BullMQ on Redis or in process. */
export class SummaryQueueConfig extends configSlice((config) => ({
  /** No Redis: the in-process queue; else BullMQ on `redisUrl`. */
  inProcess: config.inProcessQueue,
  redisUrl: config.REDIS_URL,
  prefix: config.QHORUS_QUEUE_PREFIX,
  /** Attempts per job, with the backoff between them. */
  retry: { attempts: config.QHORUS_JOB_ATTEMPTS, backoffMs: config.QHORUS_JOB_BACKOFF_MS },
  /** Jobs run at once per worker process. */
  concurrency: config.QHORUS_WORKER_CONCURRENCY,
  /** BullMQ's lock per running job, and how often stalled jobs are taken back. */
  lockMs: config.QHORUS_JOB_LOCK_MS,
  stalledCheckMs: config.QHORUS_JOB_STALLED_CHECK_MS,
  /** How long shutdown waits for running jobs. */
  shutdownTimeoutMs: config.QHORUS_SHUTDOWN_TIMEOUT_MS,
})) {}
