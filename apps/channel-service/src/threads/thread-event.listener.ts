import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { MessagePostedEvent } from '../messages/message-posted.event';
import { THREAD_EVENT_BUS, ThreadEventBus } from './thread-event-bus';
import { threadKey } from './thread-key';
import { toThreadEvent } from './thread-event';

/** Feeds every committed message that belongs to a thread (has a correlation id) into the thread bus. */
@Injectable()
export class ThreadEventListener {
  constructor(@Inject(THREAD_EVENT_BUS) private readonly bus: ThreadEventBus) {}

  /** Synchronous: most messages have no thread, and the bus only hands a thread's message to its accumulator. */
  @OnEvent(MessagePostedEvent.NAME, { suppressErrors: true })
  onMessagePosted(event: MessagePostedEvent): void {
    const { message } = event;
    if (!message.correlationId) return;
    this.bus.publish(toThreadEvent(threadKey(event.channelId, message.correlationId), message));
  }
}
