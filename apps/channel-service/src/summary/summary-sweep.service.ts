import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { SummaryConfig } from '../config/slices/summary-config';
import { ThreadsRepository } from '../threads/threads.repository';
import { SummaryQueue } from './queue/summary-queue';
import { SummaryRepository } from './summary.repository';

/**
 * Postgres is the source of truth: every interval, channels that are due (threshold reached,
 * a refresh asked for, or `updateAfterSeconds` elapsed) are enqueued again, and so are closed
 * threads whose last close has no summary yet (the thread index says which): at most
 * QHORUS_SWEEP_BATCH channels and QHORUS_SWEEP_BATCH threads a round (the rest next round, oldest
 * close first for threads), found through indexes so a round costs the same with 100 idle
 * channels or 100,000 (bench/scenarios/sweep.js). This recovers triggers lost while Redis was
 * down or with a process that crashed before its job ran, and drives the time trigger.
 * Duplicates are absorbed by the queue's deduplication.
 */
@Injectable()
export class SummarySweepService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SummarySweepService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly queue: SummaryQueue,
    private readonly summaries: SummaryRepository,
    private readonly threads: ThreadsRepository,
    private readonly config: SummaryConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.runsWorker) return;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().then(() => undefined).finally(() => (this.running = null));
    }, this.config.sweepIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  async sweep(): Promise<number> {
    try {
      const errorBackoffMs = this.config.failureBackoffMs;
      const batch = this.config.sweepBatch;
      const due = await this.summaries.dueChannelIds(errorBackoffMs, batch);
      for (const channelId of due) await this.queue.enqueue(channelId);
      const threads = await this.threads.dueForSummary(errorBackoffMs, batch);
      for (const t of threads) await this.queue.enqueueThread(t.channelId, t.correlationId);
      if (due.length + threads.length > 0) this.logger.debug({ channels: due.length, threads: threads.length }, 'sweep enqueued due summaries');
      return due.length + threads.length;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'summary sweep failed; will try again next interval');
      return 0;
    }
  }
}
