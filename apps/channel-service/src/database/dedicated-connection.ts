import { Client } from 'pg';
import { CONNECT_TIMEOUT_MS } from './connection';

/**
 * A Postgres connection of its own, outside the pool, for what must stay on one session: session
 * advisory locks, LISTEN. Opened on first use; when it breaks it is dropped (and `onLost` told, since
 * whatever the session held is gone) and the next `client()` opens a new one.
 */
export class DedicatedConnection {
  private current: Promise<Client> | null = null;
  private live: Client | null = null;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly queryTimeoutMs: number | undefined,
    private readonly onLost: (err: Error) => void,
  ) {}

  /** The open session (opening it if needed). */
  client(): Promise<Client> {
    if (this.closed) return Promise.reject(new Error('the dedicated Postgres connection is closed'));
    if (!this.current) {
      const client = new Client({ connectionString: this.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: this.queryTimeoutMs });
      const lost = (err: Error) => {
        if (this.current !== opened) return;
        this.current = null;
        this.live = null;
        client.end().catch(() => undefined);
        if (!this.closed) this.onLost(err);
      };
      client.on('error', lost);
      client.on('end', () => lost(new Error('the connection ended')));
      const opened: Promise<Client> = client.connect().then(
        () => {
          if (this.current === opened) this.live = client;
          return client;
        },
        (err: Error) => {
          if (this.current === opened) this.current = null;
          throw err;
        },
      );
      this.current = opened;
    }
    return this.current;
  }

  /** Tail of the statements sent on this session: one at a time (pg deprecates overlapping queries on a client). */
  private tail: Promise<unknown> = Promise.resolve();

  /**
   * Runs one statement on the session (opening it if needed), after the ones already sent, or on
   * `session` only if given and still the open one (else resolves to null without running).
   */
  query<Row = Record<string, unknown>>(text: string, values: unknown[] = [], session?: Client): Promise<{ rows: Row[]; session: Client } | null> {
    const run = this.tail.then(async () => {
      if (session && !this.isSession(session)) return null;
      const client = session ?? (await this.client());
      const result = await client.query(text, values);
      return { rows: result.rows as Row[], session: client };
    });
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** True while a session is open or being opened. */
  get isOpenOrOpening(): boolean {
    return this.current !== null;
  }

  /** Whether `client` is still this connection's open session (not lost since it was handed out). */
  isSession(client: Client): boolean {
    return this.live === client;
  }

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = null;
    this.live = null;
    if (current) await current.then((c) => c.end()).catch(() => undefined);
  }
}
