import { Logger } from '@nestjs/common';
import { Database } from '../database/database';
import { DedicatedConnection } from '../database/dedicated-connection';

/** Postgres refuses a NOTIFY payload of 8,000 bytes or more; stay under it with room to spare. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_900;
/** After the listening connection breaks, how long before it is opened again (and every topic listened to again). */
export const RELISTEN_DELAY_MS = 1_000;
/** A topic is a Postgres identifier, quoted in LISTEN: lower case, digits, underscores. */
const TOPIC = /^[a-z_][a-z0-9_]{0,62}$/;

const NOTIFY_SQL = `SELECT pg_notify($1, $2)`;

export type NotificationHandler = (payload: string) => void;

/**
 * Postgres LISTEN/NOTIFY between the instances on one database: the way they tell each other
 * things without Redis (channel events for SSE and long polls; anything else that needs a nudge
 * across instances, e.g. a cache to drop). Notifying goes through the pool; listening holds one
 * dedicated connection per process, opened when the first topic is subscribed. A notification
 * reaches every listening session on the database, this one included.
 *
 * Fire and forget, like Redis pub/sub: what is notified while the listening connection is down
 * (until it is back, RELISTEN_DELAY_MS later) is not received. Use it for nudges whose truth is in
 * Postgres.
 */
export class PostgresNotifications {
  private readonly logger = new Logger(PostgresNotifications.name);
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private readonly connection: DedicatedConnection;
  /** Sessions whose notifications are already routed to `dispatch`. */
  private readonly hooked = new WeakSet<object>();
  private relistenTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Called after every topic is listened to again following a lost connection (see onRelisten). */
  private readonly relistened = new Set<() => void>();

  constructor(
    databaseUrl: string,
    private readonly db: Database,
  ) {
    this.connection = new DedicatedConnection(databaseUrl, undefined, (err) => {
      this.logger.warn({ err: err.message }, 'notification connection lost; listening again shortly');
      this.scheduleRelisten();
    });
  }

  /**
   * Calls `handler` with every payload notified on `topic` from now on (resolves once Postgres is
   * listening). Returns the way to stop.
   */
  async subscribe(topic: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    assertTopic(topic);
    let set = this.handlers.get(topic);
    if (!set) {
      this.handlers.set(topic, (set = new Set()));
      try {
        await this.listen(topic);
      } catch (err) {
        this.handlers.delete(topic);
        throw err;
      }
    }
    set.add(handler);
    return async () => {
      if (!set!.delete(handler) || set!.size > 0 || this.handlers.get(topic) !== set) return;
      this.handlers.delete(topic);
      if (this.connection.isOpenOrOpening) await this.connection.query(`UNLISTEN "${topic}"`).catch(() => undefined);
    };
  }

  /** Calls `then` whenever listening resumes after the connection was lost: what was notified meanwhile is gone. */
  onRelisten(then: () => void): void {
    this.relistened.add(then);
  }

  /** Notifies every instance listening on `topic` (rejects a payload Postgres would refuse). */
  async notify(topic: string, payload: string): Promise<void> {
    assertTopic(topic);
    if (Buffer.byteLength(payload) > MAX_NOTIFY_PAYLOAD_BYTES) throw new Error(`notification payload over ${MAX_NOTIFY_PAYLOAD_BYTES} bytes`);
    await this.db.query(NOTIFY_SQL, [topic, payload]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    this.handlers.clear();
    await this.connection.close();
  }

  private async listen(topic: string): Promise<void> {
    const client = await this.connection.client();
    if (!this.hooked.has(client)) {
      this.hooked.add(client);
      client.on('notification', (n) => this.dispatch(n.channel, n.payload ?? ''));
    }
    await this.connection.query(`LISTEN "${topic}"`, [], client);
  }

  private dispatch(topic: string, payload: string): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (err) {
        this.logger.warn({ err, topic }, 'a notification handler failed');
      }
    }
  }

  private scheduleRelisten(): void {
    if (this.closed || this.relistenTimer) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = null;
      Promise.all([...this.handlers.keys()].map((topic) => this.listen(topic))).then(
        () => this.relistened.forEach((then) => then()),
        (err: Error) => {
          this.logger.warn({ err: err.message }, 'could not listen again; retrying');
          this.scheduleRelisten();
        },
      );
    }, RELISTEN_DELAY_MS);
    this.relistenTimer.unref();
  }
}

function assertTopic(topic: string): void {
  if (!TOPIC.test(topic)) throw new Error(`invalid notification topic '${topic}'`);
}
