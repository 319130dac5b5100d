import { Logger } from '@nestjs/common';
import { Pool, PoolConfig } from 'pg';

/**
 * How many distinct statement texts get a prepared statement. Repositories use constant texts
 * (a few dozen); a text built at run time beyond this bound still runs, just unprepared, so
 * neither this map nor Postgres' per-connection statement cache can grow without limit.
 */
export const MAX_PREPARED_STATEMENTS = 200;

/** What Database needs of its pool: pg's Pool in the app, a recording fake in unit tests. */
export type StatementPool = Pick<Pool, 'query' | 'end'>;

/**
 * The one way repositories talk to Postgres: its own `pg` pool (built by `poolConfig` in
 * migrations/data-source.ts, like the TypeORM data source that only runs migrations), with
 * every statement text prepared once per connection and reused. Parsing and planning the post
 * statement cost Postgres about as much as running it (docs/benchmarks.md).
 * Rows come back exactly as `pg` returns them: bigint columns as strings, converted at the edge.
 * Keep statement texts in module constants: a text rebuilt per call is hashed again per call.
 */
export class Database {
  private readonly names = new Map<string, string>();
  private closing: Promise<void> | undefined;

  constructor(private readonly pool: StatementPool) {}

  /** A Database on a new pool. Connections open on first use. */
  static open(config: PoolConfig, logger = new Logger(Database.name)): Database {
    const pool = new Pool(config);
    // An idle connection that fails (Postgres restarted, network cut) is dropped and replaced by
    // the pool; without a listener pg's 'error' event would crash the process.
    pool.on('error', (err) => logger.warn({ err: err.message }, 'an idle Postgres connection failed; the pool replaces it'));
    return new Database(pool);
  }

  /**
   * The rows a statement returned (RETURNING rows for a write). The row type is the caller's
   * claim about its own SQL, not checked: `query<ChannelRow>(...)`, or inferred from the
   * target (`const rows: ChannelRow[] = await db.query(...)`).
   */
  async query<Row = unknown>(text: string, values: unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query({ name: this.statementName(text), text, values });
    return result.rows;
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
