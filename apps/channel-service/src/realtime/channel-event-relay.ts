import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ChannelReconfiguredEvent } from '../channels/channel-reconfigured.event';
import { MessagePostedEvent } from '../message-store/message-posted.event';
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
    this.relay(e.channelId, () => messagePostedStreamEvent(e));
  }

  @OnEvent(SummaryUpdatedEvent.NAME)
  onSummaryUpdated(e: SummaryUpdatedEvent): void {
    this.relay(e.channelId, () => summaryUpdatedStreamEvent(e));
  }

  @OnEvent(ChannelReconfiguredEvent.NAME)
  onChannelReconfigured(e: ChannelReconfiguredEvent): void {
    this.relay(e.channelId, () => accessChangedStreamEvent(e));
  }

  /** Builds the stream event only when a stream here or on another instance can receive it. */
  private relay(channelId: string, build: () => ChannelStreamEvent): void {
    if (!this.hub.has(channelId) && !this.fanout.othersListening) return;
    const event = build();
    this.hub.deliver(event);
    this.fanout.publish(event);
  }
}
