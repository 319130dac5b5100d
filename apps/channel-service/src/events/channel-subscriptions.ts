import { BeforeApplicationShutdown, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { ChannelEventHub } from './channel-event-hub';
import { ACCESS_CHANGED, ChannelStreamEvent } from './channel-stream-event';
import { EventFanout } from './event-fanout';
import { SSE_HEARTBEAT_MS } from './sse-limits';
import { SseStream } from './sse-stream';

export interface SubscriptionOptions {
  includeEvents: boolean;
  heartbeatMs?: number;
}

/**
 * The open event streams of this instance: each gets its channel's events, a heartbeat comment
 * every SSE_HEARTBEAT_MS, is re-checked when the channel's members change (a caller who loses
 * access is cut off), and is cleaned up when the client goes away or the service shuts down.
 */
@Injectable()
export class ChannelSubscriptions implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ChannelSubscriptions.name);
  private readonly open = new Set<() => void>();

  constructor(
    private readonly hub: ChannelEventHub,
    private readonly fanout: EventFanout,
    private readonly channels: ChannelsService,
  ) {}

  /**
   * Opens `stream` and sends it `channel`'s events until either side closes. Other instances
   * are told first, so what they publish from the moment the stream opens reaches it.
   */
  async attach(channel: Channel, by: Principal, stream: SseStream, onClientGone: (cleanup: () => void) => void, options: SubscriptionOptions): Promise<void> {
    const stopListening = await this.fanout.listen();
    stream.open(`streaming channel ${channel.name}`);
    let ended = false;
    let unsubscribe = () => {};
    const heartbeat = setInterval(() => stream.comment('heartbeat'), options.heartbeatMs ?? SSE_HEARTBEAT_MS);
    heartbeat.unref();
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      stopListening();
      stream.close();
      this.open.delete(end);
    };
    unsubscribe = this.hub.subscribe(channel.id, (event) => this.forward(event, channel, by, stream, options, end));
    this.open.add(end);
    onClientGone(end);
  }

  get openCount(): number {
    return this.open.size;
  }

  /** Ends every stream so the HTTP server can close (an SSE response never ends by itself). */
  beforeApplicationShutdown(): void {
    for (const end of [...this.open]) end();
  }

  private forward(event: ChannelStreamEvent, channel: Channel, by: Principal, stream: SseStream, options: SubscriptionOptions, end: () => void): void {
    if (event.name === ACCESS_CHANGED) {
      void this.recheckAccess(channel, by, end);
      return;
    }
    if (event.telemetry && !options.includeEvents) return;
    stream.send(event.name, event.data);
  }

  private async recheckAccess(channel: Channel, by: Principal, end: () => void): Promise<void> {
    try {
      await this.channels.get(channel.name, by);
    } catch (err) {
      if (err instanceof NotFoundException) end();
      else this.logger.warn({ err, channel: channel.name }, 'could not re-check stream access; keeping the stream');
    }
  }
}
