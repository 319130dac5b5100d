import { Logger } from '@nestjs/common';
import { DatabaseError, Pool, PoolClient, PoolConfig } from 'pg';

/**
 * How many distinct statement texts get a prepared statement. Repositories use constant texts
 * (a few dozen); a text built at run time beyond this bound still runs, just unprepared, so
 * neither this map nor Postgres' per-connection statement cache can grow without limit.
 */
export const MAX_PREPARED_STATEMENTS = 200;

/** What Database needs of its pool: pg's Pool in the app, a recording fake in unit tests. */
export type StatementPool = Pick<Pool, 'connect' | 'end'>;

/** Clears the session's prepared statements (see `sessionOutlivesConnection`). */
const DEALLOCATE_ALL_SQL = 'DEALLOCATE ALL';

export interface DatabaseOpenOptions {
  readonly logger?: Logger;
  /**
   * The server keeps one session across connections (the embedded PGlite): a new connection
   * starts by clearing the prepared statements an earlier one left, which pg, knowing only its
   * own connection, would otherwise prepare again and be refused ("already exists").
   */
  readonly sessionOutlivesConnection?: boolean;
}

/** What runs a statement: the pool (`Database`) or one open transaction (`Transaction`). */
export interface Queryable {
  query<Row = unknown>(text: string, values?: unknown[]): Promise<Row[]>;
}

/** One connection inside BEGIN … COMMIT, handed to `Database.transaction`'s callback. */
export class Transaction implements Queryable {
  constructor(
    private readonly client: PoolClient,
    private readonly statementName: (text: string) => string | undefined,
  ) {}

  async query<Row = unknown>(text: string, values: unknown[] = []): Promise<Row[]> {
    const result = await this.client.query({ name: this.statementName(text), text, values });
    return result.rows;
  }
}

/**
 * The one way repositories talk to Postgres: its own `pg` pool (built by `poolConfig` in
 * database/connection.ts, like the TypeORM data source that only runs migrations), with
 * every statement text prepared once per connection and reused. Parsing and planning the post
 * statement cost Postgres about as much as running it (docs/benchmarks.md).
 * Rows come back exactly as `pg` returns them: bigint columns as strings, converted at the edge.
 * Keep statement texts in module constants: a text rebuilt per call is hashed again per call.
 */
export class Database implements Queryable {
  private readonly names = new Map<string, string>();
  private closing: Promise<void> | undefined;

  constructor(private readonly pool: StatementPool) {}

  /** A Database on a new pool. Connections open on first use. */
  static open(config: PoolConfig, options: DatabaseOpenOptions = {}): Database {
    const logger = options.logger ?? new Logger(Database.name);
    const pool = new Pool(config);
    // An idle connection that fails (Postgres restarted, network cut) is dropped and replaced by
    // the pool; without a listener pg's 'error' event would crash the process.
    pool.on('error', (err) => logger.warn({ err: err.message }, 'an idle Postgres connection failed; the pool replaces it'));
    if (options.sessionOutlivesConnection) {
      // Queued on the new client before the query it was opened for.
      pool.on('connect', (client) => {
        client.query(DEALLOCATE_ALL_SQL).catch((err: Error) => logger.warn({ err: err.message }, 'could not clear prepared statements on a new connection'));
      });
    }
    return new Database(pool);
  }

  /**
   * The rows a statement returned (RETURNING rows for a write). The row type is the caller's
   * claim about its own SQL, not checked: `query<ChannelRow>(...)`, or inferred from the
   * target (`const rows: ChannelRow[] = await db.query(...)`).
   */
  async query<Row = unknown>(text: string, values: unknown[] = []): Promise<Row[]> {
    const client: PoolClient = await this.pool.connect();
    let broken: Error | undefined;
    try {
      const result = await client.query({ name: this.statementName(text), text, values });
      return result.rows;
    } catch (err) {
      // A statement Postgres refused (a unique key, a bad value) leaves the connection, and the
      // statements prepared on it, as they were: keep it. Anything else (a timeout, a cut
      // socket) may have left it mid-exchange: drop it. pg's pool.query drops it in both cases.
      if (!(err instanceof DatabaseError)) broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /**
   * Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it
   * throws (then rethrows). For the few operations one statement cannot express (the lifecycle
   * operations of DESIGN §10). `work` must run its statements on the `Transaction` it is given:
   * a `db.query` inside it would wait for a second connection (the embedded pool has one).
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      try {
        const result = await work(new Transaction(client, (text) => this.statementName(text)));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: Error) => {
          broken = rollbackErr;
        });
        throw err;
      }
    } catch (err) {
      if (!(err instanceof DatabaseError)) broken ??= err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  }

  /** Ends every connection (waiting for queries in flight). Later queries fail. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }

  private statementName(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= MAX_PREPARED_STATEMENTS) return known;
    const name = `qhorus_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}
