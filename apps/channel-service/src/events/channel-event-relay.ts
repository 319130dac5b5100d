import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ChannelReconfiguredEvent } from '../channels/channel-reconfigured.event';
import { MessagePostedEvent } from '../messages/message-posted.event';
import { SummaryUpdatedEvent } from '../summary/summary-updated.event';
import { ChannelEventHub } from './channel-event-hub';
import { accessChangedStreamEvent, ChannelStreamEvent, messagePostedStreamEvent, summaryUpdatedStreamEvent } from './channel-stream-event';
import { EventFanout } from './event-fanout';

/** Turns this process's domain events into stream events: to local streams, and to other instances. */
@Injectable()
export class ChannelEventRelay {
  constructor(
    private readonly hub: ChannelEventHub,
    private readonly fanout: EventFanout,
  ) {}

  @OnEvent(MessagePostedEvent.NAME)
  onMessagePosted(e: MessagePostedEvent): void {
    this.relay(messagePostedStreamEvent(e));
  }

  @OnEvent(SummaryUpdatedEvent.NAME)
  onSummaryUpdated(e: SummaryUpdatedEvent): void {
    this.relay(summaryUpdatedStreamEvent(e));
  }

  @OnEvent(ChannelReconfiguredEvent.NAME)
  onChannelReconfigured(e: ChannelReconfiguredEvent): void {
    this.relay(accessChangedStreamEvent(e));
  }

  private relay(event: ChannelStreamEvent): void {
    this.hub.deliver(event);
    this.fanout.publish(event);
  }
}
