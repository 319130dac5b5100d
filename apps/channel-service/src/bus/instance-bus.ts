import { Logger } from '@nestjs/common';

/** A named topic of the bus, as each broker spells it. */
export interface BusTopic {
  /** The Redis channel is `<key prefix>:<name>`, so deployments sharing a Redis stay apart. */
  readonly name: string;
  /** The Postgres NOTIFY channel: an identifier (lower case, digits, underscores); one database is one deployment. */
  readonly postgresChannel: string;
}

export type BusHandler = (payload: string) => void;
/** Stops one subscription (the topic is left once its last handler is gone). */
export type Unsubscribe = () => Promise<void>;

/**
 * Fire-and-forget messages between the instances of one deployment, on named topics: Redis
 * pub/sub when REDIS_URL is set, Postgres LISTEN/NOTIFY when only DATABASE_URL is, in-process on
 * the embedded database (one process serves everything). A message reaches every subscriber of
 * its topic, on every instance, this one included; a message is text, at most `maxPayloadBytes`.
 * Each process holds one listening connection, whatever the number of topics.
 *
 * Nothing is kept for a listener that is away, so a message may be lost; use the bus for nudges
 * whose truth is elsewhere (Postgres). One policy covers the gaps: when this instance listens
 * again after losing its connection (every topic subscribed again), it calls its `onResync`
 * handlers, which read the truth again; and when its publishing connection comes back after a
 * loss, it asks the other instances to do the same (what it published meanwhile is lost).
 */
export abstract class InstanceBus {
  protected readonly logger = new Logger(this.constructor.name);
  private readonly resyncHandlers = new Set<() => void>();

  /** The largest payload `publish` sends. */
  abstract readonly maxPayloadBytes: number;
  /** Whether anything published here can reach another process (false: the in-process bus). */
  abstract readonly reachesOtherInstances: boolean;

  /** Calls `handler` with every payload published on `topic` from now on (resolves once the broker listens). */
  abstract subscribe(topic: BusTopic, handler: BusHandler): Promise<Unsubscribe>;
  /** Sends `payload` to every subscriber of `topic` (rejects one over `maxPayloadBytes`). */
  abstract publish(topic: BusTopic, payload: string): Promise<void>;
  abstract close(): Promise<void>;

  /** Calls `then` whenever messages on any topic may have been lost (see the class comment). */
  onResync(then: () => void): void {
    this.resyncHandlers.add(then);
  }

  protected resync(): void {
    for (const then of this.resyncHandlers) {
      try {
        then();
      } catch (err) {
        this.logger.warn({ err }, 'a resync handler failed');
      }
    }
  }

  protected assertPayload(payload: string): void {
    if (Buffer.byteLength(payload) > this.maxPayloadBytes) throw new Error(`bus payload over ${this.maxPayloadBytes} bytes`);
  }
}
