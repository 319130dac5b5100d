import { Logger } from '@nestjs/common';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ChannelStreamEvent } from './channel-stream-event';
import { EventFanout } from './event-fanout';

/** The pub/sub channel, under the deployment's key prefix so deployments sharing a Redis stay apart. */
export const channelEventsTopic = (prefix: string) => `${prefix}:channel-events`;

/** Upper bound on the events of one pub/sub message (a burst is split into several). */
export const MAX_EVENTS_PER_MESSAGE = 256;
/** Separates the publishing instance's id from the JSON list of events in a message. */
const ORIGIN_SEPARATOR = '\n';

/**
 * Redis pub/sub between instances (REDIS_URL set): every local event is published, and events
 * published by other instances are handed to this instance's hub. An instance skips its own
 * (it delivered them locally already). Fire and forget: a stream is live telemetry; a client
 * that missed events while Redis was down catches up with check_messages / get_channel_summary.
 *
 * Events are published in batches, one message per event-loop turn (`<origin>\n<JSON list>`,
 * in order): under load that is one Redis round trip for many posts instead of one per post,
 * and an instance recognises its own messages by their prefix without parsing them
 * (docs/benchmarks.md).
 */
export class RedisEventFanout extends EventFanout {
  private readonly logger = new Logger(RedisEventFanout.name);
  private readonly origin = randomUUID();
  private readonly topic: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;
  private pending: ChannelStreamEvent[] = [];

  constructor(redisUrl: string, prefix: string, deliver: (event: ChannelStreamEvent) => void) {
    super();
    this.topic = channelEventsTopic(prefix);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    this.subscriber = new IORedis(redisUrl);
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis event fan-out connection error'));
    }
    const own = this.origin + ORIGIN_SEPARATOR;
    this.subscriber.on('message', (_topic: string, payload: string) => {
      if (payload.startsWith(own)) return;
      for (const event of parseEvents(payload)) deliver(event);
    });
    this.subscriber.subscribe(this.topic).catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe to channel events'));
  }

  publish(event: ChannelStreamEvent): void {
    this.pending.push(event);
    if (this.pending.length === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    const events = this.pending;
    this.pending = [];
    for (let i = 0; i < events.length; i += MAX_EVENTS_PER_MESSAGE) {
      const batch = events.slice(i, i + MAX_EVENTS_PER_MESSAGE);
      this.publisher.publish(this.topic, this.origin + ORIGIN_SEPARATOR + JSON.stringify(batch)).catch((err) => {
        this.logger.debug({ err: err.message, events: batch.length }, 'could not publish channel events to other instances');
      });
    }
  }

  async close(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    this.subscriber.disconnect();
    this.publisher.disconnect();
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
