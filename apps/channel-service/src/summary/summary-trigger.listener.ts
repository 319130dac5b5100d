import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ChannelReconfiguredEvent } from '../channels/channel-reconfigured.event';
import { MessagePostedEvent } from '../messages/message-posted.event';
import { SummaryQueue } from './queue/summary-queue';
import { SummaryRepository } from './summary.repository';
import { TriggerThrottle } from './trigger-throttle';

/** Turns events into summary jobs when a channel's backlog reaches its threshold. */
@Injectable()
export class SummaryTriggerListener {
  private readonly throttle = new TriggerThrottle();

  constructor(
    private readonly queue: SummaryQueue,
    private readonly summaries: SummaryRepository,
  ) {}

  /**
   * The post already computed the backlog in its insert statement: no read needed here. While a
   * job catches up, the throttle spares a queue round trip per post (see TriggerThrottle).
   */
  @OnEvent(MessagePostedEvent.NAME, { async: true, promisify: true, suppressErrors: true })
  async onMessagePosted(event: MessagePostedEvent): Promise<void> {
    if (this.throttle.shouldEnqueue(event.channelId, event.backlog, event.summaryThreshold)) await this.queue.enqueue(event.channelId);
  }

  @OnEvent(ChannelReconfiguredEvent.NAME, { async: true, promisify: true, suppressErrors: true })
  async onChannelReconfigured(event: ChannelReconfiguredEvent): Promise<void> {
    if (await this.summaries.isDue(event.channelId)) await this.queue.enqueue(event.channelId);
  }
}
