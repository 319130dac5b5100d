import { BeforeApplicationShutdown, Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { DatabaseConfig } from '../config/slices/database-config';
import { SummaryQueueConfig } from '../config/slices/summary-queue-config';
import { ModelUsageRepository } from '../cost/model-usage.repository';
import { MessageStoreModule } from '../message-store/message-store.module';
import { ThreadsModule } from '../threads/threads.module';
import { ChannelJobLock, PostgresChannelJobLock, ProcessLocalJobLock } from './channel-job-lock';
import { SummaryQueue } from './queue/summary-queue';
import { summaryQueueProvider } from './queue/summary-queue.provider';
import { SummaryController } from './summary.controller';
import { SummaryJobProcessor } from './summary-job.processor';
import { ChannelModelMeters } from './jobs/channel-model-meters';
import { ClosedThreadSummariser } from './jobs/closed-thread-summariser';
import { SummaryJobRunner } from './jobs/summary-job.runner';
import { OpenThreadsGrounding } from './open-threads-grounding';
import { SummaryRepository } from './summary.repository';
import { SummaryService } from './summary.service';
import { SummarySweepService } from './summary-sweep.service';
import { SummaryTriggerListener } from './summary-trigger.listener';

@Module({
  imports: [ChannelsModule, MessageStoreModule, ThreadsModule],
  controllers: [SummaryController],
  providers: [
    summaryQueueProvider,
    {
      provide: ChannelJobLock,
      inject: [DatabaseConfig],
      useFactory: (database: DatabaseConfig): ChannelJobLock =>
        database.embedded ? new ProcessLocalJobLock() : new PostgresChannelJobLock(database.url!, database.queryTimeoutMs),
    },
    SummaryRepository,
    ModelUsageRepository,
    SummaryService,
    ChannelModelMeters,
    SummaryJobRunner,
    ClosedThreadSummariser,
    OpenThreadsGrounding,
    SummaryJobProcessor,
    SummaryTriggerListener,
    SummarySweepService,
  ],
  exports: [SummaryQueue, SummaryRepository, SummaryService],
})
export class SummaryModule implements BeforeApplicationShutdown {
  constructor(
    private readonly queue: SummaryQueue,
    private readonly config: SummaryQueueConfig,
    private readonly locks: ChannelJobLock,
  ) {}

  /** Before the database closes: drain the worker, then close the queue and its connections (the job locks last: jobs hold them). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.queue.close(this.config.shutdownTimeoutMs);
    await this.locks.close();
  }
}
