import { Logger } from '@nestjs/common';
import IORedis from 'ioredis';
import { AnnouncedFanout, FANOUT_TIMING, FanoutTiming, ORIGIN_SEPARATOR, parseEventList } from './announced-fanout';
import { ChannelStreamEvent } from './channel-stream-event';

/** The pub/sub channel, under the deployment's key prefix so deployments sharing a Redis stay apart. */
export const channelEventsTopic = (prefix: string) => `${prefix}:channel-events`;
/** Where instances with open streams announce themselves. */
export const listenersTopic = (prefix: string) => `${prefix}:channel-events:listeners`;

/** An events-topic message body (after `<origin>\n`) asking every instance to read Postgres again. */
const RESYNC_ALL = 'resync';

/** Calls `then` each time `connection` is ready again after losing Redis (not on its first connect). */
function onReconnect(connection: IORedis, then: () => void): void {
  let connected = false;
  connection.on('ready', () => {
    if (connected) then();
    connected = true;
  });
}

/** Upper bound on the events of one pub/sub message (a burst is split into several). */
export const MAX_EVENTS_PER_MESSAGE = 256;

/**
 * Redis pub/sub between instances (REDIS_URL set). Events go over Redis only while some other
 * instance has a stream open: such an instance subscribes to the events topic and announces
 * itself on the listeners topic (when its first stream opens, then every `announceEveryMs`);
 * every instance publishes for `listenersTtlMs` after the last announcement it heard. With no
 * stream open anywhere, a post costs Redis nothing (docs/benchmarks.md). An instance skips its
 * own messages (it delivered them locally already).
 *
 * Events are published in batches, one message per event-loop turn (`<origin>\n<JSON list>`, in
 * order). Pub/sub keeps nothing for a connection that is away, so a wake-up could be lost: when
 * the subscriber comes back, this instance's waits and streams read Postgres again (`resync`), and
 * when the publisher comes back, it asks every other instance to do the same (`<origin>\nresync`).
 */
export class RedisEventFanout extends AnnouncedFanout {
  protected readonly logger = new Logger(RedisEventFanout.name);
  private readonly eventsTopic: string;
  private readonly listenersTopic: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;
  private announceTimer: NodeJS.Timeout | null = null;
  /** Resolved when this instance hears its own announcement back (see `startAnnouncing`). */
  private echoWaiters: (() => void)[] = [];

  constructor(
    redisUrl: string,
    prefix: string,
    private readonly deliver: (event: ChannelStreamEvent) => void,
    timing: FanoutTiming = FANOUT_TIMING,
    resync: () => void = () => {},
  ) {
    super(timing, resync);
    this.eventsTopic = channelEventsTopic(prefix);
    this.listenersTopic = listenersTopic(prefix);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    // A subscriber waits for Redis however long it is away (see RedisCredentialEvents).
    this.subscriber = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis event fan-out connection error'));
    }
    this.subscriber.on('message', (topic: string, payload: string) => this.onMessage(topic, payload));
    this.subscriber.subscribe(this.listenersTopic).catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe to stream announcements'));
    onReconnect(this.subscriber, () => this.resubscribed());
    onReconnect(this.publisher, () => this.publishResync());
  }

  /**
   * The subscriber is back: what was published while it was away is lost, so once its topics are
   * subscribed again (a SUBSCRIBE sent now completes after ioredis' own resubscription), every
   * local wait and stream reads Postgres again.
   */
  private resubscribed(): void {
    this.subscriber
      .subscribe(this.listenersTopic)
      .then(() => this.resync())
      .catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe again after reconnecting'));
  }

  /** The publisher is back: the others missed what this instance posted meanwhile; tell them to read again. */
  private publishResync(): void {
    this.publisher.publish(this.eventsTopic, this.ownPrefix + RESYNC_ALL).catch((err) => this.logger.debug({ err: err.message }, 'could not ask the other instances to read again'));
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    if (this.announceTimer) clearInterval(this.announceTimer);
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }

  private onMessage(topic: string, payload: string): void {
    if (topic === this.listenersTopic) {
      if (this.heardAnnouncement(payload)) for (const heard of this.echoWaiters.splice(0)) heard();
      return;
    }
    if (payload.startsWith(this.ownPrefix)) return;
    if (payload.slice(payload.indexOf(ORIGIN_SEPARATOR) + 1) === RESYNC_ALL) return this.resync();
    for (const event of parseEventList<ChannelStreamEvent>(payload)) this.deliver(event);
  }

  /**
   * Subscribe to the events first, then announce: whatever the others publish after hearing us, we
   * receive. Ready when our own announcement comes back: Redis has then written it to every other
   * instance's subscription too, so a post they commit after our caller's next read is published
   * to us (a long poll or a replaying stream reads right after `listen()` resolves).
   */
  protected startAnnouncing(): Promise<void> {
    const announce = () => this.publisher.publish(this.listenersTopic, this.origin).then(() => undefined);
    const heardBack = () => new Promise<void>((resolve) => this.echoWaiters.push(resolve));
    const ready = this.subscriber.subscribe(this.eventsTopic).then(() => Promise.all([heardBack(), announce()])).then(() => undefined);
    ready.catch((err) => this.logger.debug({ err: err.message }, 'could not announce an open stream'));
    this.announceTimer = setInterval(() => announce().catch(() => undefined), this.timing.announceEveryMs);
    this.announceTimer.unref();
    return ready;
  }

  protected stopAnnouncing(): void {
    if (this.announceTimer) clearInterval(this.announceTimer);
    this.announceTimer = null;
    this.subscriber.unsubscribe(this.eventsTopic).catch(() => undefined);
  }

  protected flush(): void {
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
