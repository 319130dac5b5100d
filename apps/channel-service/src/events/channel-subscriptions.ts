import { BeforeApplicationShutdown, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Principal } from '../auth/principal';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { toMessage } from '../messages/message.entity';
import { MessagesRepository } from '../messages/messages.repository';
import { SummaryRepository } from '../summary/summary.repository';
import { MessageType } from '@qhorus/api';
import { ChannelEventHub } from './channel-event-hub';
import { ACCESS_CHANGED, ChannelStreamEvent, messagePostedData, summaryUpdatedData } from './channel-stream-event';
import { EventFanout } from './event-fanout';
import { StreamResume } from './event-ids';
import { ResumableStream, StreamHistory } from './resumable-stream';
import { SSE_HEARTBEAT_MS } from './sse-limits';
import { SseStream } from './sse-stream';

export interface SubscriptionOptions {
  includeEvents: boolean;
  heartbeatMs?: number;
  /** Where the stream starts (replayed from Postgres up to now, then live). */
  resume: StreamResume;
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
    private readonly messages: MessagesRepository,
    private readonly summaries: SummaryRepository,
  ) {}

  /**
   * Opens `stream` and sends it `channel`'s events until either side closes: first what it
   * missed (from Postgres, after `options.resume`), then live. It subscribes and tells the other
   * instances before reading anything, so a post committed meanwhile is either read or held.
   */
  async attach(channel: Channel, by: Principal, stream: SseStream, onClientGone: (cleanup: () => void) => void, options: SubscriptionOptions): Promise<void> {
    let ended = false;
    let end = () => {};
    const resumable = new ResumableStream(stream, this.history(channel), options.resume, options.includeEvents, () => end());
    const unsubscribe = this.hub.subscribe(channel.id, (event) => this.forward(event, channel, by, resumable, () => end()));
    const stopListening = await this.fanout.listen();
    stream.open(`streaming channel ${channel.name}`);
    const heartbeat = setInterval(() => stream.comment('heartbeat'), options.heartbeatMs ?? SSE_HEARTBEAT_MS);
    heartbeat.unref();
    end = () => {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe();
      stopListening();
      stream.close();
      this.open.delete(end);
    };
    this.open.add(end);
    onClientGone(end);
    try {
      await resumable.catchUp();
    } catch (err) {
      this.logger.warn({ err, channel: channel.name }, 'could not replay a stream from Postgres; closing it (the client resumes with Last-Event-ID)');
      end();
    }
  }

  /** What a stream of `channel` reads to catch up. */
  private history(channel: Channel): StreamHistory {
    return {
      messagesAfter: async (afterSeq, limit) =>
        (await this.messages.range(channel.id, afterSeq, null, limit, true)).map((row) => {
          const m = toMessage(row, channel.name);
          return { seq: m.seq, telemetry: m.type === MessageType.EVENT, data: messagePostedData(m) };
        }),
      currentSummary: async () => {
        const slot = await this.summaries.findSlot(channel.id);
        return slot && slot.version > 0 ? { version: slot.version, data: summaryUpdatedData(channel.name, slot) } : null;
      },
    };
  }

  get openCount(): number {
    return this.open.size;
  }

  /** Ends every stream so the HTTP server can close (an SSE response never ends by itself). */
  beforeApplicationShutdown(): void {
    for (const end of [...this.open]) end();
  }

  private forward(event: ChannelStreamEvent, channel: Channel, by: Principal, resumable: ResumableStream, end: () => void): void {
    if (event.name === ACCESS_CHANGED) {
      void this.recheckAccess(channel, by, end);
      return;
    }
    resumable.onEvent(event);
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
