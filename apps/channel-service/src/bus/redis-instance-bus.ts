import IORedis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { BusHandler, BusTopic, InstanceBus, Unsubscribe } from './instance-bus';
import { TopicHandlers } from './topic-handlers';

/** Redis refuses a bulk string over 512 MB; the bus sets no tighter limit of its own. */
const REDIS_MAX_PAYLOAD_BYTES = 512 * 1024 * 1024;

/** The bus's own topic: an instance whose publisher was away asks the others to resync (payload: its origin). */
const RESYNC_REQUESTS = { name: 'bus:resync' };

/** A topic's Redis channel, under the deployment's key prefix. */
export const redisChannel = (prefix: string, topic: Pick<BusTopic, 'name'>) => `${prefix}:${topic.name}`;

/** Calls `then` each time `connection` is ready again after losing Redis (not on its first connect). */
function onReconnect(connection: IORedis, then: () => void): void {
  let connected = false;
  connection.on('ready', () => {
    if (connected) then();
    connected = true;
  });
}

/**
 * The bus over Redis pub/sub (REDIS_URL set): one publishing and one subscribing connection per
 * process. When the subscriber is back after a loss, its topics are subscribed again (a SUBSCRIBE
 * sent then completes after ioredis' own resubscription) and then this instance resyncs; when the
 * publisher is back, it asks every other instance to resync.
 */
export class RedisInstanceBus extends InstanceBus {
  readonly maxPayloadBytes = REDIS_MAX_PAYLOAD_BYTES;
  readonly reachesOtherInstances = true;
  private readonly origin = randomUUID();
  private readonly handlers = new TopicHandlers(this.logger);
  private readonly resyncChannel: string;
  private readonly publisher: IORedis;
  private readonly subscriber: IORedis;

  constructor(
    redisUrl: string,
    private readonly prefix: string,
  ) {
    super();
    this.resyncChannel = redisChannel(prefix, RESYNC_REQUESTS);
    this.publisher = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
    // A subscriber waits for Redis however long it is away (as a worker does): with the default
    // retry limit a SUBSCRIBE sent while Redis was down at start-up failed for good, and what was
    // published on its topics never reached this instance.
    this.subscriber = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (err) => this.logger.debug({ err: err.message }, 'redis bus connection error'));
    }
    this.subscriber.on('message', (channel: string, payload: string) => this.onMessage(channel, payload));
    this.subscriber.subscribe(this.resyncChannel).catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe to resync requests'));
    onReconnect(this.subscriber, () => this.resubscribed());
    onReconnect(this.publisher, () => this.askOthersToResync());
  }

  async subscribe(topic: BusTopic, handler: BusHandler): Promise<Unsubscribe> {
    const channel = redisChannel(this.prefix, topic);
    await this.handlers.add(channel, handler, () => this.subscriber.subscribe(channel));
    return async () => {
      if (this.handlers.remove(channel, handler)) await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async publish(topic: BusTopic, payload: string): Promise<void> {
    await this.publisher.publish(redisChannel(this.prefix, topic), payload);
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.subscriber.disconnect();
    this.publisher.disconnect();
  }

  private onMessage(channel: string, payload: string): void {
    if (channel !== this.resyncChannel) return this.handlers.dispatch(channel, payload);
    if (payload !== this.origin) this.resync();
  }

  private resubscribed(): void {
    this.subscriber
      .subscribe(this.resyncChannel, ...this.handlers.topics())
      .then(() => this.resync())
      .catch((err) => this.logger.warn({ err: err.message }, 'could not subscribe again after reconnecting'));
  }

  private askOthersToResync(): void {
    this.publisher.publish(this.resyncChannel, this.origin).catch((err) => this.logger.debug({ err: err.message }, 'could not ask the other instances to resync'));
  }
}
