import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { withTimeout } from '../common/with-timeout';
import { AppConfig } from '../config/app-config';
import { SummaryQueue } from '../summary/queue/summary-queue';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-check-timeout';

export const QUEUE_HEALTH_KEY = 'queue';

/** The summary queue's backing store answers: Redis for BullMQ, the process itself in embedded mode. */
@Injectable()
export class QueueHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly queue: SummaryQueue,
    private readonly config: AppConfig,
  ) {}

  async check() {
    const session = this.indicators.check(QUEUE_HEALTH_KEY);
    const backend = this.config.inProcessQueue ? 'in-process' : 'redis';
    const healthy = await withTimeout(this.queue.isHealthy(), HEALTH_CHECK_TIMEOUT_MS, 'queue ping').catch(() => false);
    if (healthy) return session.up({ backend });
    return session.down({ backend, message: backend === 'redis' ? 'Redis is unreachable' : 'the in-process queue is closed' });
  }
}
