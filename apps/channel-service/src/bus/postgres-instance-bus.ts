import { Database } from '../database/database';
import { DedicatedConnection } from '../database/dedicated-connection';
import { BusHandler, BusTopic, InstanceBus, Unsubscribe } from './instance-bus';
import { TopicHandlers } from './topic-handlers';

/** Postgres refuses a NOTIFY payload of 8,000 bytes or more; stay under it with room to spare. */
const MAX_NOTIFY_PAYLOAD_BYTES = 7_900;
/** After the listening connection breaks, how long before it is opened again (and every topic listened to again). */
const RELISTEN_DELAY_MS = 1_000;
/** A topic is a Postgres identifier, quoted in LISTEN: lower case, digits, underscores. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

const NOTIFY_SQL = `SELECT pg_notify($1, $2)`;

/**
 * The bus over Postgres LISTEN/NOTIFY (DATABASE_URL set, no Redis). Notifying goes through the
 * pool; listening holds one dedicated connection per process, opened when the first topic is
 * subscribed. A notification is delivered on commit to every listening session on the database,
 * this one included. When the listening connection breaks, it is opened again RELISTEN_DELAY_MS
 * later, every topic listened to again, and then this instance resyncs. Publishing needs no
 * such care: a NOTIFY that cannot reach Postgres fails, as does the write it would announce.
 */
export class PostgresInstanceBus extends InstanceBus {
  readonly maxPayloadBytes = MAX_NOTIFY_PAYLOAD_BYTES;
  readonly reachesOtherInstances = true;
  private readonly handlers = new TopicHandlers(this.logger);
  private readonly connection: DedicatedConnection;
  /** Sessions whose notifications are already routed to the handlers. */
  private readonly hooked = new WeakSet<object>();
  private relistenTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    databaseUrl: string,
    private readonly db: Database,
  ) {
    super();
    this.connection = new DedicatedConnection(databaseUrl, undefined, (err) => {
      this.logger.warn({ err: err.message }, 'bus listening connection lost; listening again shortly');
      this.scheduleRelisten();
    });
  }

  async subscribe(topic: BusTopic, handler: BusHandler): Promise<Unsubscribe> {
    const channel = assertChannel(topic.postgresChannel);
    await this.handlers.add(channel, handler, () => this.listen(channel));
    return async () => {
      if (!this.handlers.remove(channel, handler)) return;
      if (this.connection.isOpenOrOpening) await this.connection.query(`UNLISTEN "${channel}"`).catch(() => undefined);
    };
  }

  async publish(topic: BusTopic, payload: string): Promise<void> {
    const channel = assertChannel(topic.postgresChannel);
    this.assertPayload(payload);
    await this.db.query(NOTIFY_SQL, [channel, payload]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.relistenTimer) clearTimeout(this.relistenTimer);
    this.handlers.clear();
    await this.connection.close();
  }

  private async listen(channel: string): Promise<void> {
    const client = await this.connection.client();
    if (!this.hooked.has(client)) {
      this.hooked.add(client);
      client.on('notification', (n) => this.handlers.dispatch(n.channel, n.payload ?? ''));
    }
    await this.connection.query(`LISTEN "${channel}"`, [], client);
  }

  private scheduleRelisten(): void {
    if (this.closed || this.relistenTimer) return;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = null;
      Promise.all(this.handlers.topics().map((channel) => this.listen(channel))).then(
        () => this.resync(),
        (err: Error) => {
          this.logger.warn({ err: err.message }, 'could not listen again; retrying');
          this.scheduleRelisten();
        },
      );
    }, RELISTEN_DELAY_MS);
    this.relistenTimer.unref();
  }
}

function assertChannel(channel: string): string {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel '${channel}'`);
  return channel;
}
