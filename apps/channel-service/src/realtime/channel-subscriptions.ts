import { BeforeApplicationShutdown, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { AgentCredentialsChangedEvent } from '../auth/agent-credentials-changed.event';
import { isAdmin, Principal } from '../auth/principal';
import { RealtimeConfig } from '../config/slices/realtime-config';
import { TooManyRequestsException } from '../rate-limit/too-many-requests.exception';
import { Channel } from '../channels/channel.entity';
import { ChannelsService } from '../channels/channels.service';
import { toMessage } from '../message-store/message.entity';
import { MessageReadsRepository } from '../message-store/message-reads.repository';
import { SummaryRepository } from '../summary/summary.repository';
import { MessageType } from '@qhorus/api';
import { ChannelEventHub } from './channel-event-hub';
import { ACCESS_CHANGED, ChannelStreamEvent, messagePostedData, summaryUpdatedData } from './channel-stream-event';
import { EventFanout } from './event-fanout';
import { StreamResume } from './event-ids';
import { ResumableStream, StreamHistory } from './resumable-stream';
import { SSE_HEARTBEAT_MS } from './sse-limits';
import { SseStream } from './sse-stream';

/** Retry-After of a refused stream: a slot frees when the caller closes one of its streams. */
export const SSE_SLOT_RETRY_AFTER_SECONDS = 1;

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
  /** Each open stream's `end`, and who holds it. */
  private readonly open = new Map<() => void, Principal>();
  /** Streams held (or being opened) per agent on this instance, for QHORUS_MAX_SSE_STREAMS_PER_AGENT. */
  private readonly perAgent = new Map<string, number>();

  constructor(
    private readonly hub: ChannelEventHub,
    private readonly fanout: EventFanout,
    private readonly channels: ChannelsService,
    private readonly messages: MessageReadsRepository,
    private readonly summaries: SummaryRepository,
    private readonly config: RealtimeConfig,
  ) {}

  /**
   * Takes one of the caller's stream slots before anything is written (the 429 is then a JSON
   * answer); returns the function that gives it back. Synchronous, so concurrent opens cannot both
   * take the last slot. The admin is not limited.
   */
  reserve(by: Principal): () => void {
    if (isAdmin(by)) return () => {};
    const limit = this.config.eventStreamsPerAgent;
    const held = this.perAgent.get(by.name) ?? 0;
    if (held >= limit) {
      throw new TooManyRequestsException(by.name, SSE_SLOT_RETRY_AFTER_SECONDS, `'${by.name}' already holds ${held} event streams on this instance (limit QHORUS_MAX_SSE_STREAMS_PER_AGENT=${limit}); close one first`);
    }
    this.perAgent.set(by.name, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perAgent.get(by.name) ?? 1) - 1;
      if (left <= 0) this.perAgent.delete(by.name);
      else this.perAgent.set(by.name, left);
    };
  }

  /**
   * Opens `stream` and sends it `channel`'s events until either side closes: first what it
   * missed (from Postgres, after `options.resume`), then live. It subscribes and tells the other
   * instances before reading anything, so a post committed meanwhile is either read or held.
   */
  async attach(
    channel: Channel,
    by: Principal,
    stream: SseStream,
    onClientGone: (cleanup: () => void) => void,
    options: SubscriptionOptions,
    release: () => void = () => {},
  ): Promise<void> {
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
      release();
    };
    this.open.set(end, by);
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
    for (const end of [...this.open.keys()]) end();
  }

  /** A revoked or rotated token's streams end at once (the token would be refused on reconnect). */
  @OnEvent(AgentCredentialsChangedEvent.NAME, { suppressErrors: true })
  onCredentialsChanged(event: AgentCredentialsChangedEvent): void {
    for (const [end, by] of [...this.open]) if (!isAdmin(by) && by.name === event.agentName) end();
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
