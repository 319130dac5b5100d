import type { Pool } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { DataSource } from 'typeorm';

/**
 * How many distinct statement texts get a prepared statement. Repositories use constant texts
 * (a few dozen); a text built at run time beyond this bound still runs, just unprepared, so
 * neither this map nor Postgres' per-connection statement cache can grow without limit.
 */
export const MAX_PREPARED_STATEMENTS = 200;

/**
 * The one way repositories talk to Postgres: the pool TypeORM opened (migrations stay with
 * TypeORM), with every statement text prepared once per connection and reused. Parsing and
 * planning the post statement cost Postgres about as much as running it (docs/benchmarks.md).
 * Rows come back exactly as `pg` returns them: bigint columns as strings, converted at the edge.
 * Keep statement texts in module constants: a text rebuilt per call is hashed again per call.
 */
export class Database {
  private readonly pool: Pool;
  private readonly names = new Map<string, string>();

  constructor(dataSource: DataSource) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
  }

  /** The rows a statement returned (RETURNING rows for a write). */
  async query<Row = any>(text: string, values: unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query({ name: this.statementName(text), text, values });
    return result.rows;
  }

  private statementName(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= MAX_PREPARED_STATEMENTS) return known;
    const name = `qhorus_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}
