import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MessagesModule } from '../messages/messages.module';
import { ClosedThreadSummariser } from './closed-thread-summariser';
import { threadEventBusProvider } from './thread-event-bus';
import { ThreadEventListener } from './thread-event.listener';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { ThreadSummariesService } from './thread-summaries.service';
import { ThreadSummaryPipeline } from './thread-summary.pipeline';
import { ThreadsController } from './threads.controller';

/** Thread summaries: the pipeline path (bus → keyed runner → whole thread from Postgres) and its read endpoint. */
@Module({
  imports: [ChannelsModule, MessagesModule],
  controllers: [ThreadsController],
  providers: [
    threadEventBusProvider,
    ThreadEventListener,
    ThreadSummariesRepository,
    ClosedThreadSummariser,
    ThreadSummaryPipeline,
    ThreadSummariesService,
  ],
})
export class ThreadsModule {}
