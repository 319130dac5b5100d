import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { ChannelReconfiguredEvent } from '../channels/channel-reconfigured.event';
import { MessagePostedEvent } from '../message-store/message-posted.event';
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
   * Synchronous on purpose: a map lookup per post, and `enqueue` never rejects (a failure is
   * logged and left to the sweep), so no promise or deferred call is spent on every post.
   */
  @OnEvent(MessagePostedEvent.NAME, { suppressErrors: true })
  onMessagePosted(event: MessagePostedEvent): void {
    // The post statement said this message closed its thread (the thread index): one job for that
    // thread. Per message, also inside a batch.
    if (event.closedThread && event.message.correlationId) void this.queue.enqueueThread(event.channelId, event.message.correlationId);
    if (!event.endsBatch) return;
    const backlog = { backlog: event.backlog, threshold: event.summaryThreshold, tokens: event.tokens };
    if (this.throttle.shouldEnqueue(event.channelId, backlog)) void this.queue.enqueue(event.channelId);
  }

  @OnEvent(ChannelReconfiguredEvent.NAME, { async: true, promisify: true, suppressErrors: true })
  async onChannelReconfigured(event: ChannelReconfiguredEvent): Promise<void> {
    if (await this.summaries.isDue(event.channelId)) await this.queue.enqueue(event.channelId);
  }
}
