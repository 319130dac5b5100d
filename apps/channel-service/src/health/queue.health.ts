import { Injectable, Logger } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { withTimeout } from '../common/with-timeout';
import { HealthConfig } from '../config/slices/health-config';
import { SummaryQueue } from '../summary/queue/summary-queue';
import { HEALTH_CHECK_TIMEOUT_MS } from './health-check-timeout';

export const QUEUE_HEALTH_KEY = 'queue';

/**
 * The summary queue's backing store answers: Redis for BullMQ, the process itself in embedded
 * mode. The answer names what is down; the driver's error goes to the log, once per outage.
 */
@Injectable()
export class QueueHealthIndicator {
  private readonly logger = new Logger('QueueHealth');
  private down = false;

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly queue: SummaryQueue,
    private readonly config: HealthConfig,
  ) {}

  async check() {
    const session = this.indicators.check(QUEUE_HEALTH_KEY);
    const backend = this.config.inProcessQueue ? 'in-process' : 'redis';
    const problem = await withTimeout(this.queue.problem(), HEALTH_CHECK_TIMEOUT_MS, 'queue ping').catch((err: Error) => err.message);
    if (problem === null) {
      if (this.down) this.logger.log(`readiness: ${backend === 'redis' ? 'Redis answers' : 'the queue is open'} again`);
      this.down = false;
      return session.up({ backend });
    }
    if (!this.down) this.logger.warn({ err: problem }, `readiness: ${backend === 'redis' ? 'Redis is unreachable' : 'the in-process queue is closed'}`);
    this.down = true;
    return session.down({ backend, message: backend === 'redis' ? 'Redis is unreachable' : 'the in-process queue is closed' });
  }
}
