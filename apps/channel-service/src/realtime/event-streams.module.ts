import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { MessageStoreModule } from '../message-store/message-store.module';
import { SummaryModule } from '../summary/summary.module';
import { ChannelSubscriptions } from './channel-subscriptions';
import { EventsController } from './events.controller';
import { RealtimeModule } from './realtime.module';

/** Server-Sent Events of a channel: replay from Postgres (Last-Event-ID / afterSeq), then live from the fan-out. */
@Module({
  imports: [RealtimeModule, ChannelsModule, MessageStoreModule, SummaryModule],
  controllers: [EventsController],
  providers: [ChannelSubscriptions],
})
export class EventStreamsModule {}
