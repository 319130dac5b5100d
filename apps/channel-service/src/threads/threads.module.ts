import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { ModelUsageRepository } from '../cost/model-usage.repository';
import { MessageStoreModule } from '../message-store/message-store.module';
import { MessagesModule } from '../messages/messages.module';
import { ClosedThreadSummariser } from './closed-thread-summariser';
import { InboxController } from './inbox.controller';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { ThreadsController } from './threads.controller';
import { ThreadsRepository } from './threads.repository';
import { ThreadsService } from './threads.service';

/**
 * The durable thread index (written by the post statement), its reads (threads, inbox) and the
 * thread-summary job the summary queue runs (ClosedThreadSummariser). ModelUsageRepository is
 * provided here too (stateless over the global Database): thread summaries spend the channel's
 * model budget like its summary does.
 */
@Module({
  imports: [ChannelsModule, MessageStoreModule, MessagesModule],
  controllers: [ThreadsController, InboxController],
  providers: [ThreadsRepository, ThreadSummariesRepository, ClosedThreadSummariser, ThreadsService, ModelUsageRepository],
  exports: [ThreadsRepository, ClosedThreadSummariser, ThreadsService],
})
export class ThreadsModule {}
