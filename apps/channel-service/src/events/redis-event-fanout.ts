import { Logger } from '@nestjs/common';
import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { ChannelStreamEvent } from './channel-stream-event';
import { EventFanout } from './event-fanout';

/** The pub/sub channel, under the deployment's key prefix so deployments sharing a Redis stay apart. */
export const channelEventsTopic = (prefix: string) => `${prefix}:channel-events`;

interface Envelope {
  origin: string;
  event: ChannelStreamEvent;
}

/**
 * Redis pub/sub between instances (REDIS_URL set): every local event is published, and events
 * published by other instances are handed to this instance's hub. An instance skips its own
 * (it delivered them locally already). Fire and forget: a stream is live telemetry; a client
 * that missed events while Redis was down catches up with check_messages / get_channel_summary.
 */
export class RedisEventFanout extends EventFanout {
  private readonly logger = new Logger(RedisEventFanout.name);
  private readonly origin = randomUUID();
  private readonly topic: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;

  constructor(redisUrl: string, prefix: string, deliver: (event: ChannelStreamEvent) => void) {
    super();
    this.topic = channelEventsTopic(prefix);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    this.subscriber = new IORedis(redisUrl);
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis event fan-out connection error'));
    }
    this.subscriber.on('message', (_topic: string, payload: string) => {
      const envelope = parseEnvelope(payload);
      if (envelope && envelope.origin !== this.origin) deliver(envelope.event);
    });
    this.subscriber.subscribe(this.topic).catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe to channel events'));
  }

  publish(event: ChannelStreamEvent): void {
    const envelope: Envelope = { origin: this.origin, event };
    this.publisher.publish(this.topic, JSON.stringify(envelope)).catch((err) => {
      this.logger.debug({ err: err.message, channelId: event.channelId }, 'could not publish a channel event to other instances');
    });
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }
}

function parseEnvelope(payload: string): Envelope | null {
  try {
    const envelope = JSON.parse(payload) as Envelope;
    return typeof envelope?.origin === 'string' && typeof envelope.event?.channelId === 'string' ? envelope : null;
  } catch {
    return null;
  }
}
