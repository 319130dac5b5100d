import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { EventsModule } from '../events/events.module';
import { LongPollWaits } from './long-poll-waits';
import { MessagesController } from './messages.controller';
import { MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';

@Module({
  imports: [ChannelsModule, EventsModule],
  controllers: [MessagesController],
  providers: [MessagesRepository, MessagesService, LongPollWaits],
  exports: [MessagesRepository, MessagesService, LongPollWaits],
})
export class MessagesModule {}
