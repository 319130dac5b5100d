import { BeforeApplicationShutdown, Inject, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { toMessage } from '../message-store/message.entity';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { MessageReadsRepository } from '../message-store/message-reads.repository';
import { MessageStoreModule } from '../message-store/message-store.module';
import { ChannelEventHub } from './channel-event-hub';
import { ChannelEventRelay } from './channel-event-relay';
import { messagePostedStreamEvent } from './channel-stream-event';
import { EventFanout, LocalOnlyFanout } from './event-fanout';
import { PostgresEventFanout } from './postgres-event-fanout';
import { PostgresNotifications } from './postgres-notifications';
import { RedisEventFanout } from './redis-event-fanout';
import { FANOUT_TIMING } from './announced-fanout';

/**
 * The channel event fan-out: this instance's events to its own listeners (SSE streams, long
 * polls) and to the other instances': through Redis pub/sub when REDIS_URL is set, through
 * Postgres LISTEN/NOTIFY when only DATABASE_URL is (the embedded database serves one process:
 * events stay in it). `PostgresNotifications` is exported for anything else that needs to nudge
 * the other instances on the database (null on the embedded database); it opens its listening
 * connection only when something subscribes.
 */
@Module({
  imports: [MessageStoreModule],
  providers: [
    ChannelEventHub,
    ChannelEventRelay,
    {
      provide: PostgresNotifications,
      inject: [AppConfig, Database],
      useFactory: (config: AppConfig, db: Database): PostgresNotifications | null =>
        config.embeddedDatabase ? null : new PostgresNotifications(config.DATABASE_URL!, db),
    },
    {
      provide: EventFanout,
      inject: [AppConfig, ChannelEventHub, PostgresNotifications, MessageReadsRepository],
      useFactory: (config: AppConfig, hub: ChannelEventHub, notifications: PostgresNotifications | null, messages: MessageReadsRepository): EventFanout => {
        const deliver = (e: Parameters<ChannelEventHub['deliver']>[0]) => hub.deliver(e);
        const resync = () => hub.resyncAll();
        if (config.REDIS_URL) return new RedisEventFanout(config.REDIS_URL, config.QHORUS_QUEUE_PREFIX, deliver, FANOUT_TIMING, resync);
        if (!notifications) return new LocalOnlyFanout();
        // A notification missed while the listening connection was down: read Postgres again.
        notifications.onRelisten(resync);
        const readPosted = async (channelId: string, channelName: string, seq: number) => {
          const [row] = await messages.range(channelId, seq - 1, seq, 1, true);
          return row ? messagePostedStreamEvent(new MessagePostedEvent(channelId, toMessage(row, channelName), 0, 0)) : null;
        };
        return new PostgresEventFanout(notifications, deliver, readPosted, FANOUT_TIMING, resync);
      },
    },
  ],
  exports: [ChannelEventHub, EventFanout, PostgresNotifications],
})
export class EventsModule implements BeforeApplicationShutdown {
  constructor(
    private readonly fanout: EventFanout,
    // Null on the embedded database: the type alone would not tell Nest what to inject.
    @Inject(PostgresNotifications) private readonly notifications: PostgresNotifications | null,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.fanout.close();
    await this.notifications?.close();
  }
}
