import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../common/with-timeout';
import { ChannelStreamEvent } from './channel-stream-event';
import { EventFanout, StopListening } from './event-fanout';

/** Separates the publishing instance's id from the JSON list of events in a bus message. */
export const ORIGIN_SEPARATOR = '\n';

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
 * The protocol both buses (Redis pub/sub, Postgres LISTEN/NOTIFY) follow: an instance with open
 * streams subscribes to the events topic and announces itself on the listeners topic (when its
 * first stream opens, then every `announceEveryMs`); every instance publishes for
 * `listenersTtlMs` after the last announcement it heard, so with no stream open anywhere a post
 * costs the bus nothing. Events are batched per event-loop turn; bus messages are
 * `<origin>\n<JSON list>`, and an instance skips its own. A subclass is the transport.
 */
export abstract class AnnouncedFanout extends EventFanout {
  protected abstract readonly logger: Logger;
  protected readonly origin = randomUUID();
  /** How this instance's own event messages start: skipped by prefix, without parsing them. */
  protected readonly ownPrefix = this.origin + ORIGIN_SEPARATOR;
  protected pending: ChannelStreamEvent[] = [];
  /** Until when another instance is known to have a stream open (epoch ms). */
  private othersListenUntil = 0;
  /** Open local streams that want other instances' events. */
  private localListeners = 0;
  /** Settles once this instance's subscription and first announcement are on the bus (null: not announcing). */
  private announced: Promise<void> | null = null;

  constructor(
    protected readonly timing: FanoutTiming,
    /** Makes every local wait and stream read Postgres again (the bus may have dropped events). */
    protected readonly resync: () => void = () => {},
  ) {
    super();
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

  /** An announcement arrived on the listeners topic; true when it is this instance's own. */
  protected heardAnnouncement(payload: string): boolean {
    if (payload === this.origin) return true;
    this.othersListenUntil = Date.now() + this.timing.listenersTtlMs;
    return false;
  }

  /** Subscribe to the events topic, then announce (and keep announcing): resolves once both reached the bus. */
  protected abstract startAnnouncing(): Promise<void>;
  /** The last local stream closed: stop announcing, unsubscribe from the events topic. */
  protected abstract stopAnnouncing(): void;
  /** Sends `pending` to the bus. */
  protected abstract flush(): void;
}

/** The events in another instance's bus message (`<origin>\n<JSON list>`); nothing for anything malformed. */
export function parseEventList<T extends { channelId: string }>(payload: string): T[] {
  const at = payload.indexOf(ORIGIN_SEPARATOR);
  if (at < 0) return [];
  try {
    const events: unknown = JSON.parse(payload.slice(at + ORIGIN_SEPARATOR.length));
    return Array.isArray(events) ? events.filter((e): e is T => typeof e?.channelId === 'string') : [];
  } catch {
    return [];
  }
}
