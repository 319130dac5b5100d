import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ChannelReconfiguredEvent } from '../channels/channel-reconfigured.event';
import { MessagePostedEvent } from '../messages/message-posted.event';
import { SummaryQueue } from './queue/summary-queue';
import { SummaryRepository } from './summary.repository';

/** Turns events into summary jobs when a channel's backlog reaches its threshold. */
@Injectable()
export class SummaryTriggerListener {
  constructor(
    private readonly queue: SummaryQueue,
    private readonly summaries: SummaryRepository,
  ) {}

  /** The post already computed the backlog in its insert statement: no read needed here. */
  @OnEvent(MessagePostedEvent.NAME, { async: true, promisify: true, suppressErrors: true })
  async onMessagePosted(event: MessagePostedEvent): Promise<void> {
    if (event.backlog >= event.summaryThreshold) await this.queue.enqueue(event.channelId);
  }

  @OnEvent(ChannelReconfiguredEvent.NAME, { async: true, promisify: true, suppressErrors: true })
  async onChannelReconfigured(event: ChannelReconfiguredEvent): Promise<void> {
    if (await this.summaries.isDue(event.channelId)) await this.queue.enqueue(event.channelId);
  }
}
