import { BeforeApplicationShutdown, Global, Module } from '@nestjs/common';
import { BusModule } from '../bus/bus.module';
import { InstanceBus } from '../bus/instance-bus';
import { LongPollWaits } from '../message-store/long-poll-waits';
import { toMessage } from '../message-store/message.entity';
import { MessagePostedEvent } from '../message-store/message-posted.event';
import { MessageReadsRepository } from '../message-store/message-reads.repository';
import { MessageStoreModule } from '../message-store/message-store.module';
import { ChannelEventFanout, FANOUT_TIMING } from './channel-event-fanout';
import { ChannelEventHub } from './channel-event-hub';
import { ChannelEventRelay } from './channel-event-relay';
import { ChannelEventWaits } from './channel-event-waits';
import { ChannelStreamEvent, messagePostedStreamEvent } from './channel-stream-event';
import { EventFanout, LocalOnlyFanout } from './event-fanout';

/**
 * The channel events of real time: this instance's events to its own listeners (SSE streams,
 * long polls) and, over the instance bus, to the other instances' (the embedded database serves
 * one process: events stay in it). Global, because it provides the long polls behind the
 * `LongPollWaits` port that messages/ (below it) owns.
 */
@Global()
@Module({
  imports: [BusModule, MessageStoreModule],
  providers: [
    ChannelEventHub,
    ChannelEventRelay,
    { provide: LongPollWaits, useClass: ChannelEventWaits },
    {
      provide: EventFanout,
      inject: [InstanceBus, ChannelEventHub, MessageReadsRepository],
      useFactory: (bus: InstanceBus, hub: ChannelEventHub, messages: MessageReadsRepository): EventFanout => {
        if (!bus.reachesOtherInstances) return new LocalOnlyFanout();
        const deliver = (e: ChannelStreamEvent) => hub.deliver(e);
        const readPosted = async (channelId: string, channelName: string, seq: number) => {
          const [row] = await messages.range(channelId, seq - 1, seq, 1, true);
          return row ? messagePostedStreamEvent(new MessagePostedEvent({ channelId, message: toMessage(row, channelName), backlog: 0, summaryThreshold: 0 })) : null;
        };
        return new ChannelEventFanout(bus, deliver, readPosted, FANOUT_TIMING, () => hub.resyncAll());
      },
    },
  ],
  exports: [ChannelEventHub, EventFanout, LongPollWaits],
})
export class RealtimeModule implements BeforeApplicationShutdown {
  constructor(private readonly fanout: EventFanout) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.fanout.close();
  }
}
