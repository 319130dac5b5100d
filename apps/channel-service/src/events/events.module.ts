import { BeforeApplicationShutdown, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ChannelEventHub } from './channel-event-hub';
import { ChannelEventRelay } from './channel-event-relay';
import { EventFanout, LocalOnlyFanout } from './event-fanout';
import { RedisEventFanout } from './redis-event-fanout';

/**
 * The channel event fan-out: this instance's events to its own listeners (SSE streams, long
 * polls) and, through Redis pub/sub when REDIS_URL is set, to the other instances'.
 */
@Module({
  providers: [
    ChannelEventHub,
    ChannelEventRelay,
    {
      provide: EventFanout,
      inject: [AppConfig, ChannelEventHub],
      useFactory: (config: AppConfig, hub: ChannelEventHub): EventFanout =>
        config.REDIS_URL ? new RedisEventFanout(config.REDIS_URL, config.QHORUS_QUEUE_PREFIX, (e) => hub.deliver(e)) : new LocalOnlyFanout(),
    },
  ],
  exports: [ChannelEventHub, EventFanout],
})
export class EventsModule implements BeforeApplicationShutdown {
  constructor(private readonly fanout: EventFanout) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.fanout.close();
  }
}
