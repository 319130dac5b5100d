import { BeforeApplicationShutdown, Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { AppConfig } from '../config/app-config';
import { ChannelEventHub } from './channel-event-hub';
import { ChannelEventRelay } from './channel-event-relay';
import { ChannelSubscriptions } from './channel-subscriptions';
import { EventFanout, LocalOnlyFanout } from './event-fanout';
import { EventsController } from './events.controller';
import { RedisEventFanout } from './redis-event-fanout';

/** Live channel events over SSE; across instances through Redis pub/sub when REDIS_URL is set. */
@Module({
  imports: [ChannelsModule],
  controllers: [EventsController],
  providers: [
    ChannelEventHub,
    ChannelEventRelay,
    ChannelSubscriptions,
    {
      provide: EventFanout,
      inject: [AppConfig, ChannelEventHub],
      useFactory: (config: AppConfig, hub: ChannelEventHub): EventFanout =>
        config.REDIS_URL ? new RedisEventFanout(config.REDIS_URL, config.QHORUS_QUEUE_PREFIX, (e) => hub.deliver(e)) : new LocalOnlyFanout(),
    },
  ],
})
export class EventsModule implements BeforeApplicationShutdown {
  constructor(private readonly fanout: EventFanout) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.fanout.close();
  }
}
