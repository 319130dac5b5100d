import { BeforeApplicationShutdown, Global, Module } from '@nestjs/common';
import { BusModule } from '../bus/bus.module';
import { InstanceBus } from '../bus/instance-bus';
import { LongPollWaits } from '../messages/long-poll-waits';
import { toMessage } from '../messages/message.entity';
import { MessagePostedEvent } from '../messages/message-posted.event';
import { MessagesRepository } from '../messages/messages.repository';
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
 *
 * MessagesRepository is provided here, not imported with MessagesModule: MessagesModule waits
 * through this global module, and the repository is stateless over the global Database.
 */
@Global()
@Module({
  imports: [BusModule],
  providers: [
    ChannelEventHub,
    ChannelEventRelay,
    MessagesRepository,
    { provide: LongPollWaits, useClass: ChannelEventWaits },
    {
      provide: EventFanout,
      inject: [InstanceBus, ChannelEventHub, MessagesRepository],
      useFactory: (bus: InstanceBus, hub: ChannelEventHub, messages: MessagesRepository): EventFanout => {
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
