import { Injectable, Logger } from '@nestjs/common';
import { ChannelStreamEvent, resyncStreamEvent } from './channel-stream-event';

export type StreamListener = (event: ChannelStreamEvent) => void;

/** In-process fan-out of channel events to the open streams of this instance, by channel. */
@Injectable()
export class ChannelEventHub {
  private readonly logger = new Logger(ChannelEventHub.name);
  private readonly listeners = new Map<string, Set<StreamListener>>();

  /** Returns the unsubscribe function. */
  subscribe(channelId: string, listener: StreamListener): () => void {
    let set = this.listeners.get(channelId);
    if (!set) this.listeners.set(channelId, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0 && this.listeners.get(channelId) === set) this.listeners.delete(channelId);
    };
  }

  /** Whether a stream of this instance is open on the channel. */
  has(channelId: string): boolean {
    return this.listeners.has(channelId);
  }

  deliver(event: ChannelStreamEvent): void {
    for (const listener of this.listeners.get(event.channelId) ?? []) {
      try {
        listener(event);
      } catch (err) {
        this.logger.warn({ err, channelId: event.channelId }, 'a stream listener failed');
      }
    }
  }

  /** Tells every local wait and stream to read Postgres again: events from other instances may have been lost. */
  resyncAll(): void {
    for (const channelId of [...this.listeners.keys()]) this.deliver(resyncStreamEvent(channelId));
  }

  get subscriberCount(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }
}
