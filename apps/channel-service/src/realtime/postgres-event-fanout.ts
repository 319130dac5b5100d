import { Logger } from '@nestjs/common';
import { AnnouncedFanout, FANOUT_TIMING, FanoutTiming, parseEventList } from './announced-fanout';
import { ChannelStreamEvent, MESSAGE_POSTED } from './channel-stream-event';
import { MAX_NOTIFY_PAYLOAD_BYTES, PostgresNotifications } from './postgres-notifications';

/** Postgres LISTEN/NOTIFY topics of the fan-out (one database = one deployment, so no prefix). */
export const CHANNEL_EVENTS_TOPIC = 'qhorus_channel_events';
export const CHANNEL_EVENT_LISTENERS_TOPIC = 'qhorus_channel_event_listeners';

/** A message too large for one notification travels as its address; the receiver reads it from Postgres. */
interface MessageReference {
  channelId: string;
  name: typeof MESSAGE_POSTED;
  ref: { channel: string; seq: number };
}
type WireEvent = ChannelStreamEvent | MessageReference;

/** Reads a posted message back as its stream event (null when it is not there). */
export type PostedMessageReader = (channelId: string, channelName: string, seq: number) => Promise<ChannelStreamEvent | null>;

/**
 * Channel events between instances that share Postgres without Redis, over LISTEN/NOTIFY. The
 * same protocol as the Redis fan-out: an instance with open streams listens to the events topic
 * and announces itself on the listeners topic; the others publish only while an announcement is
 * fresh, so with no stream open anywhere a post costs Postgres nothing more. Events are batched
 * per event-loop turn into notifications under Postgres' 8,000-byte payload limit; a message
 * larger than that is sent by reference (channel, seq) and read back by the receiver, in order.
 */
export class PostgresEventFanout extends AnnouncedFanout {
  protected readonly logger = new Logger(PostgresEventFanout.name);
  private announcing: { timer: NodeJS.Timeout; stop: Promise<() => Promise<void>> } | null = null;
  /** Received notifications are delivered one after another (a reference takes a read). */
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly notifications: PostgresNotifications,
    private readonly deliver: (event: ChannelStreamEvent) => void,
    private readonly readPosted: PostedMessageReader,
    timing: FanoutTiming = FANOUT_TIMING,
    resync: () => void = () => {},
  ) {
    super(timing, resync);
    const heard = notifications.subscribe(CHANNEL_EVENT_LISTENERS_TOPIC, (payload) => this.heardAnnouncement(payload));
    heard.catch((err: Error) => this.logger.warn({ err: err.message }, 'could not listen for stream announcements'));
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    if (this.announcing) clearInterval(this.announcing.timer);
    await this.delivering;
  }

  protected startAnnouncing(): Promise<void> {
    const announce = () => this.notifications.notify(CHANNEL_EVENT_LISTENERS_TOPIC, this.origin);
    // Listen first, then announce: whatever the others publish after hearing us, we receive.
    const stop = this.notifications.subscribe(CHANNEL_EVENTS_TOPIC, (payload) => this.onEvents(payload));
    const ready = stop.then(announce);
    ready.catch((err: Error) => this.logger.debug({ err: err.message }, 'could not announce an open stream'));
    const timer = setInterval(() => announce().catch(() => undefined), this.timing.announceEveryMs);
    timer.unref();
    this.announcing = { timer, stop };
    return ready;
  }

  protected stopAnnouncing(): void {
    const { timer, stop } = this.announcing!;
    clearInterval(timer);
    this.announcing = null;
    stop.then((unsubscribe) => unsubscribe()).catch(() => undefined);
  }

  private onEvents(payload: string): void {
    if (payload.startsWith(this.ownPrefix)) return;
    const events = parseEventList<WireEvent>(payload);
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

  protected flush(): void {
    const events = this.pending;
    this.pending = [];
    const budget = MAX_NOTIFY_PAYLOAD_BYTES - Buffer.byteLength(this.ownPrefix) - 2; // the list's brackets
    let batch: string[] = [];
    let bytes = 0;
    const send = () => {
      if (batch.length === 0) return;
      const payload = `${this.ownPrefix}[${batch.join(',')}]`;
      const count = batch.length;
      batch = [];
      bytes = 0;
      this.notifications.notify(CHANNEL_EVENTS_TOPIC, payload).catch((err: Error) => {
        this.logger.debug({ err: err.message, events: count }, 'could not publish channel events to other instances');
      });
    };
    for (const event of events) {
      let json = JSON.stringify(event);
      if (Buffer.byteLength(json) > budget) {
        if (event.name !== MESSAGE_POSTED) {
          this.logger.warn({ channelId: event.channelId, event: event.name }, 'a channel event too large to notify was not sent to other instances');
          continue;
        }
        json = JSON.stringify(reference(event));
      }
      const size = Buffer.byteLength(json) + 1; // and its comma
      if (bytes + size > budget) send();
      batch.push(json);
      bytes += size;
    }
    send();
  }
}

function reference(event: ChannelStreamEvent): MessageReference {
  return { channelId: event.channelId, name: MESSAGE_POSTED, ref: { channel: String(event.data.channel), seq: Number(event.data.seq) } };
}
