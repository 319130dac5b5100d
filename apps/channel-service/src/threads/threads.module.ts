import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MessageStoreModule } from '../message-store/message-store.module';
import { InboxController } from './inbox.controller';
import { ThreadSummariesRepository } from './thread-summaries.repository';
import { ThreadsController } from './threads.controller';
import { ThreadsRepository } from './threads.repository';
import { ThreadsService } from './threads.service';

/**
 * The durable thread index (written by the post statement, thread-upsert.ts), its reads (threads,
 * inbox) and the stored thread summaries, which summary/'s thread job writes.
 */
@Module({
  imports: [ChannelsModule, MessageStoreModule],
  controllers: [ThreadsController, InboxController],
  providers: [ThreadsRepository, ThreadSummariesRepository, ThreadsService],
  exports: [ThreadsRepository, ThreadSummariesRepository, ThreadsService],
})
export class ThreadsModule {}
