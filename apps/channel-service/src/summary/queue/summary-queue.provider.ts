import { Provider } from '@nestjs/common';
import { SummaryQueueConfig } from '../../config/slices/summary-queue-config';
import { BullmqSummaryQueue } from './bullmq-summary.queue';
import { InProcessSummaryQueue } from './in-process-summary.queue';
import { SummaryQueue } from './summary-queue';

/** Chooses the queue driver: BullMQ when REDIS_URL is set, in-process otherwise. */
export const summaryQueueProvider: Provider = {
  provide: SummaryQueue,
  inject: [SummaryQueueConfig],
  useFactory: (config: SummaryQueueConfig): SummaryQueue => {
    const { retry, concurrency } = config;
    if (config.inProcess) return new InProcessSummaryQueue(retry, concurrency);
    return new BullmqSummaryQueue({
      redisUrl: config.redisUrl!,
      prefix: config.prefix,
      retry,
      concurrency,
      lockMs: config.lockMs,
      stalledCheckMs: config.stalledCheckMs,
    });
  },
};
