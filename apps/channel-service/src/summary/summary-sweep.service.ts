import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SummaryQueue } from './queue/summary-queue';
import { SummaryRepository } from './summary.repository';

/**
 * Postgres is the source of truth: every interval, channels that are due (threshold reached,
 * or `updateAfterSeconds` elapsed) are enqueued again. This recovers triggers lost while Redis
 * was down, and drives the time trigger. Duplicates are absorbed by the queue's deduplication.
 */
@Injectable()
export class SummarySweepService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SummarySweepService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly queue: SummaryQueue,
    private readonly summaries: SummaryRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsWorker) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().then(() => undefined).finally(() => (this.running = null));
    }, this.config.QHORUS_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<number> {
    try {
      const due = await this.summaries.dueChannelIds(this.config.summaryFailureBackoffMs);
      for (const channelId of due) await this.queue.enqueue(channelId);
      if (due.length > 0) this.logger.debug({ channels: due.length }, 'sweep enqueued due channels');
      return due.length;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'summary sweep failed; will try again next interval');
      return 0;
    }
  }
}
