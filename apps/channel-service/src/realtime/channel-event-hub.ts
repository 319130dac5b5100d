import { Injectable, Logger } from '@nestjs/common';
import { ChannelStreamEvent, resyncStreamEvent } from './channel-stream-event';

/** The channel id a resync names when it goes to the every-channel listeners (no channel has it: ids are bigints). */
export const EVERY_CHANNEL_ID = '*';

export type StreamListener = (event: ChannelStreamEvent) => void;

/** In-process fan-out of channel events to the open streams of this instance, by channel. */
@Injectable()
export class ChannelEventHub {
  private readonly logger = new Logger(ChannelEventHub.name);
  private readonly listeners = new Map<string, Set<StreamListener>>();
  /** Listeners to every channel's events (an inbox wait: its obligations may come from any channel). */
  private readonly everyChannel = new Set<StreamListener>();

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

  /** Every channel's events, whichever channel (the listener filters); returns the unsubscribe function. */
  subscribeAll(listener: StreamListener): () => void {
    this.everyChannel.add(listener);
    return () => this.everyChannel.delete(listener);
  }

  /** Whether a stream or wait of this instance hears the channel. */
  has(channelId: string): boolean {
    return this.everyChannel.size > 0 || this.listeners.has(channelId);
  }

  deliver(event: ChannelStreamEvent): void {
    for (const listener of this.listeners.get(event.channelId) ?? []) this.call(listener, event);
    for (const listener of this.everyChannel) this.call(listener, event);
  }

  /** Tells every local wait and stream to read Postgres again: events from other instances may have been lost. */
  resyncAll(): void {
    for (const channelId of [...this.listeners.keys()]) {
      for (const listener of this.listeners.get(channelId) ?? []) this.call(listener, resyncStreamEvent(channelId));
    }
    for (const listener of this.everyChannel) this.call(listener, resyncStreamEvent(EVERY_CHANNEL_ID));
  }

  get subscriberCount(): number {
    let n = this.everyChannel.size;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  private call(listener: StreamListener, event: ChannelStreamEvent): void {
    try {
      listener(event);
    } catch (err) {
      this.logger.warn({ err, channelId: event.channelId }, 'a stream listener failed');
    }
  }
}
