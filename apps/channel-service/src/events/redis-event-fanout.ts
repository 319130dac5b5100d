import { Logger } from '@nestjs/common';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../common/with-timeout';
import { ChannelStreamEvent } from './channel-stream-event';
import { EventFanout, StopListening } from './event-fanout';

/** The pub/sub channel, under the deployment's key prefix so deployments sharing a Redis stay apart. */
export const channelEventsTopic = (prefix: string) => `${prefix}:channel-events`;
/** Where instances with open streams announce themselves. */
export const listenersTopic = (prefix: string) => `${prefix}:channel-events:listeners`;

/** Upper bound on the events of one pub/sub message (a burst is split into several). */
export const MAX_EVENTS_PER_MESSAGE = 256;
/** Separates the publishing instance's id from the JSON list of events in a message. */
const ORIGIN_SEPARATOR = '\n';

export interface RedisFanoutTiming {
  /** How often an instance with open streams repeats its announcement. */
  announceEveryMs: number;
  /** How long an announcement keeps the others publishing (a few announcements, so one lost is harmless). */
  listenersTtlMs: number;
  /** How long opening a stream may wait for its announcement to reach Redis. */
  announceTimeoutMs: number;
}

export const REDIS_FANOUT_TIMING: RedisFanoutTiming = { announceEveryMs: 5_000, listenersTtlMs: 15_000, announceTimeoutMs: 1_000 };

/**
 * Redis pub/sub between instances (REDIS_URL set). Events go over Redis only while some other
 * instance has a stream open: such an instance subscribes to the events topic and announces
 * itself on the listeners topic (when its first stream opens, then every `announceEveryMs`);
 * every instance publishes for `listenersTtlMs` after the last announcement it heard. With no
 * stream open anywhere, a post costs Redis nothing (docs/benchmarks.md). An instance skips its
 * own messages (it delivered them locally already).
 *
 * Fire and forget: a stream is live telemetry; a client that missed events while Redis was down
 * catches up with check_messages / get_channel_summary. Events are published in batches, one
 * message per event-loop turn (`<origin>\n<JSON list>`, in order).
 */
export class RedisEventFanout extends EventFanout {
  private readonly logger = new Logger(RedisEventFanout.name);
  private readonly origin = randomUUID();
  /** How this instance's own event messages start: skipped by prefix, without parsing them. */
  private readonly ownPrefix = this.origin + ORIGIN_SEPARATOR;
  private readonly eventsTopic: string;
  private readonly listenersTopic: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;
  private pending: ChannelStreamEvent[] = [];
  /** Until when another instance is known to have a stream open (epoch ms). */
  private othersListenUntil = 0;
  /** Open local streams that want other instances' events. */
  private localListeners = 0;
  private announcing: { timer: NodeJS.Timeout; ready: Promise<void> } | null = null;
  /** Resolved when this instance hears its own announcement back (see `startAnnouncing`). */
  private echoWaiters: (() => void)[] = [];

  constructor(
    redisUrl: string,
    prefix: string,
    private readonly deliver: (event: ChannelStreamEvent) => void,
    private readonly timing: RedisFanoutTiming = REDIS_FANOUT_TIMING,
  ) {
    super();
    this.eventsTopic = channelEventsTopic(prefix);
    this.listenersTopic = listenersTopic(prefix);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    this.subscriber = new IORedis(redisUrl);
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis event fan-out connection error'));
    }
    this.subscriber.on('message', (topic: string, payload: string) => this.onMessage(topic, payload));
    this.subscriber.subscribe(this.listenersTopic).catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe to stream announcements'));
  }

  get othersListening(): boolean {
    return Date.now() < this.othersListenUntil;
  }

  publish(event: ChannelStreamEvent): void {
    if (!this.othersListening) return;
    this.pending.push(event);
    if (this.pending.length === 1) setImmediate(() => this.flush());
  }

  async listen(): Promise<StopListening> {
    if (this.localListeners++ === 0) this.startAnnouncing();
    const ready = this.announcing!.ready;
    try {
      await withTimeout(ready, this.timing.announceTimeoutMs, 'announcing an open stream to other instances');
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'streaming without a confirmed announcement');
    }
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--this.localListeners === 0) this.stopAnnouncing();
    };
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    if (this.announcing) clearInterval(this.announcing.timer);
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }

  private onMessage(topic: string, payload: string): void {
    if (topic === this.listenersTopic) {
      if (payload !== this.origin) this.othersListenUntil = Date.now() + this.timing.listenersTtlMs;
      else for (const heard of this.echoWaiters.splice(0)) heard();
      return;
    }
    if (payload.startsWith(this.ownPrefix)) return;
    for (const event of parseEvents(payload)) this.deliver(event);
  }

  /**
   * Subscribe to the events first, then announce: whatever the others publish after hearing us, we
   * receive. Ready when our own announcement comes back: Redis has then written it to every other
   * instance's subscription too, so a post they commit after our caller's next read is published
   * to us (a long poll or a replaying stream reads right after `listen()` resolves).
   */
  private startAnnouncing(): void {
    const announce = () => this.publisher.publish(this.listenersTopic, this.origin).then(() => undefined);
    const heardBack = () => new Promise<void>((resolve) => this.echoWaiters.push(resolve));
    const ready = this.subscriber.subscribe(this.eventsTopic).then(() => Promise.all([heardBack(), announce()])).then(() => undefined);
    ready.catch((err) => this.logger.debug({ err: err.message }, 'could not announce an open stream'));
    const timer = setInterval(() => announce().catch(() => undefined), this.timing.announceEveryMs);
    timer.unref();
    this.announcing = { timer, ready };
  }

  private stopAnnouncing(): void {
    clearInterval(this.announcing!.timer);
    this.announcing = null;
    this.subscriber.unsubscribe(this.eventsTopic).catch(() => undefined);
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    for (let i = 0; i < events.length; i += MAX_EVENTS_PER_MESSAGE) {
      const batch = events.slice(i, i + MAX_EVENTS_PER_MESSAGE);
      this.publisher.publish(this.eventsTopic, this.ownPrefix + JSON.stringify(batch)).catch((err) => {
        this.logger.debug({ err: err.message, events: batch.length }, 'could not publish channel events to other instances');
      });
    }
  }
}

/** The events of another instance's message; nothing for anything malformed. */
function parseEvents(payload: string): ChannelStreamEvent[] {
  const at = payload.indexOf(ORIGIN_SEPARATOR);
  if (at < 0) return [];
  try {
    const events: unknown = JSON.parse(payload.slice(at + ORIGIN_SEPARATOR.length));
    return Array.isArray(events) ? events.filter((e): e is ChannelStreamEvent => typeof e?.channelId === 'string') : [];
  } catch {
    return [];
  }
}
