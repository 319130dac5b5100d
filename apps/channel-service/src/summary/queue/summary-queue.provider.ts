import { Provider } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { BullmqSummaryQueue } from './bullmq-summary.queue';
import { InProcessSummaryQueue } from './in-process-summary.queue';
import { SummaryQueue } from './summary-queue';

/** Chooses the queue driver: BullMQ when REDIS_URL is set, in-process otherwise. */
export const summaryQueueProvider: Provider = {
  provide: SummaryQueue,
  inject: [AppConfig],
  useFactory: (config: AppConfig): SummaryQueue => {
    const retry = { attempts: config.QHORUS_JOB_ATTEMPTS, backoffMs: config.QHORUS_JOB_BACKOFF_MS };
    if (config.inProcessQueue) return new InProcessSummaryQueue(retry, config.QHORUS_WORKER_CONCURRENCY);
    return new BullmqSummaryQueue({
      redisUrl: config.REDIS_URL!,
      prefix: config.QHORUS_QUEUE_PREFIX,
      retry,
      concurrency: config.QHORUS_WORKER_CONCURRENCY,
      lockMs: config.QHORUS_JOB_LOCK_MS,
      stalledCheckMs: config.QHORUS_JOB_STALLED_CHECK_MS,
    });
  },
};
