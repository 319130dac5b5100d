import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { BusTopic, InstanceBus, Unsubscribe } from '../bus/instance-bus';
import { withTimeout } from '../common/with-timeout';
import { eventBatches, MessageReference, ORIGIN_SEPARATOR, parseEventList, PostedMessageReader } from './channel-event-batches';
import { ChannelStreamEvent } from './channel-stream-event';
import { EventFanout, StopListening } from './event-fanout';

/** The events of instances with open streams (Postgres names predate the bus: instances of the previous version hear them). */
export const CHANNEL_EVENTS: BusTopic = { name: 'channel-events', postgresChannel: 'qhorus_channel_events' };
/** Where instances with open streams announce themselves. */
export const CHANNEL_EVENT_LISTENERS: BusTopic = { name: 'channel-events:listeners', postgresChannel: 'qhorus_channel_event_listeners' };

export interface FanoutTiming {
  /** How often an instance with open streams repeats its announcement. */
  announceEveryMs: number;
  /** How long an announcement keeps the others publishing (a few announcements, so one lost is harmless). */
  listenersTtlMs: number;
  /** How long opening a stream may wait for its subscription and announcement to reach the bus. */
  announceTimeoutMs: number;
  /**
   * After this instance starts announcing, how long until its waits and streams read Postgres
   * once more: another instance publishes only once it has read the announcement, so a post it
   * made just before is caught by this read instead of being missed.
   */
  settleMs: number;
}

export const FANOUT_TIMING: FanoutTiming = { announceEveryMs: 5_000, listenersTtlMs: 15_000, announceTimeoutMs: 1_000, settleMs: 1_000 };

/**
 * Channel events between instances, over the instance bus. An instance with open streams
 * subscribes to the events topic and announces itself on the listeners topic (when its first
 * stream opens, then every `announceEveryMs`); every instance publishes for `listenersTtlMs`
 * after the last announcement it heard, so with no stream open anywhere a post costs the bus
 * nothing (docs/benchmarks.md). Events are batched per event-loop turn into bus messages
 * (`<origin>\n<JSON list>`, in order); an instance skips its own (it delivered them locally
 * already). What the bus may have lost is recovered by `resync` (every local wait and stream
 * reads Postgres again), which the bus calls after a gap.
 */
export class ChannelEventFanout extends EventFanout {
  private readonly logger = new Logger(ChannelEventFanout.name);
  private readonly origin = randomUUID();
  /** How this instance's own event messages start: skipped by prefix, without parsing them. */
  private readonly ownPrefix = this.origin + ORIGIN_SEPARATOR;
  private pending: ChannelStreamEvent[] = [];
  /** Until when another instance is known to have a stream open (epoch ms). */
  private othersListenUntil = 0;
  /** Open local streams that want other instances' events. */
  private localListeners = 0;
  /** Settles once this instance's subscription and first announcement are on the bus (null: not announcing). */
  private announced: Promise<void> | null = null;
  private announcing: { timer: NodeJS.Timeout; unsubscribe: Promise<Unsubscribe> } | null = null;
  /** Resolved when this instance hears its own announcement back (see `startAnnouncing`). */
  private echoWaiters: (() => void)[] = [];
  /** Received messages are delivered one after another (a reference takes a read). */
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: InstanceBus,
    private readonly deliver: (event: ChannelStreamEvent) => void,
    private readonly readPosted: PostedMessageReader,
    private readonly timing: FanoutTiming = FANOUT_TIMING,
    /** Makes every local wait and stream read Postgres again (the bus may have dropped events). */
    private readonly resync: () => void = () => {},
  ) {
    super();
    bus.onResync(resync);
    const heard = bus.subscribe(CHANNEL_EVENT_LISTENERS, (payload) => this.heardAnnouncement(payload));
    heard.catch((err: Error) => this.logger.warn({ err: err.message }, 'could not listen for stream announcements'));
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
    if (this.localListeners++ === 0) {
      this.announced = this.startAnnouncing();
      const settled = setTimeout(() => this.resync(), this.timing.settleMs);
      settled.unref();
    }
    try {
      await withTimeout(this.announced!, this.timing.announceTimeoutMs, 'announcing an open stream to other instances');
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'streaming without a confirmed announcement');
    }
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      if (--this.localListeners !== 0) return;
      this.announced = null;
      this.stopAnnouncing();
    };
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    if (this.announcing) clearInterval(this.announcing.timer);
    await this.delivering;
  }

  /** An announcement arrived on the listeners topic: another instance streams, or this one hears its own back. */
  private heardAnnouncement(payload: string): void {
    if (payload === this.origin) {
      for (const heard of this.echoWaiters.splice(0)) heard();
      return;
    }
    this.othersListenUntil = Date.now() + this.timing.listenersTtlMs;
  }

  /**
   * Subscribe to the events first, then announce: whatever the others publish after hearing us, we
   * receive. Ready when our own announcement comes back: the bus has then delivered it to every
   * other instance too, so a post they commit after our caller's next read is published to us (a
   * long poll or a replaying stream reads right after `listen()` resolves).
   */
  private startAnnouncing(): Promise<void> {
    const announce = () => this.bus.publish(CHANNEL_EVENT_LISTENERS, this.origin);
    const heardBack = () => new Promise<void>((resolve) => this.echoWaiters.push(resolve));
    const unsubscribe = this.bus.subscribe(CHANNEL_EVENTS, (payload) => this.onEvents(payload));
    const ready = unsubscribe.then(() => Promise.all([heardBack(), announce()])).then(() => undefined);
    ready.catch((err: Error) => this.logger.debug({ err: err.message }, 'could not announce an open stream'));
    const timer = setInterval(() => announce().catch(() => undefined), this.timing.announceEveryMs);
    timer.unref();
    this.announcing = { timer, unsubscribe };
    return ready;
  }

  /** The last local stream closed: stop announcing, leave the events topic. */
  private stopAnnouncing(): void {
    const { timer, unsubscribe } = this.announcing!;
    clearInterval(timer);
    this.announcing = null;
    unsubscribe.then((stop) => stop()).catch(() => undefined);
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    const leftOut = (event: ChannelStreamEvent) =>
      this.logger.warn({ channelId: event.channelId, event: event.name }, 'a channel event too large for the bus was not sent to other instances');
    for (const { payload, count } of eventBatches(this.ownPrefix, events, this.bus.maxPayloadBytes, leftOut)) {
      this.bus.publish(CHANNEL_EVENTS, payload).catch((err: Error) => {
        this.logger.debug({ err: err.message, events: count }, 'could not publish channel events to other instances');
      });
    }
  }

  private onEvents(payload: string): void {
    if (payload.startsWith(this.ownPrefix)) return;
    const events = parseEventList(payload);
    if (events.length === 0) return;
    this.delivering = this.delivering.then(async () => {
      for (const wire of events) {
        const event = 'ref' in wire ? await this.resolve(wire) : wire;
        if (event) this.deliver(event);
      }
    });
  }

  private async resolve(wire: MessageReference): Promise<ChannelStreamEvent | null> {
    try {
      return await this.readPosted(wire.channelId, wire.ref.channel, wire.ref.seq);
    } catch (err) {
      this.logger.debug({ err: (err as Error).message, channelId: wire.channelId }, 'could not read a large message another instance announced');
      return null;
    }
  }
}
