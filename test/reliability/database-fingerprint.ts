import { Client } from 'pg';

/** Bookkeeping the app never writes after start-up. */
const IGNORED_TABLES = new Set(['qhorus_migrations']);
/** Columns written behind on a timer, not by the request under test (agents' last-seen flush). */
const IGNORED_COLUMNS: Record<string, string[]> = { agents: ['last_seen_at'] };

const rowText = (table: string) => {
  const ignored = IGNORED_COLUMNS[table];
  return ignored ? `(to_jsonb(x) - ARRAY[${ignored.map((c) => `'${c}'`).join(', ')}]::text[])::text` : 'x::text';
};

/**
 * A digest of every row of every table of the app's schema: equal digests before and after a
 * request mean it wrote nothing (no insert, update or delete), whatever tables features add.
 */
export class DatabaseFingerprint {
  private constructor(
    private readonly client: Client,
    readonly tables: string[],
    private readonly digestSql: string,
  ) {}

  static async connect(databaseUrl: string): Promise<DatabaseFingerprint> {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const tables = rows.map((r) => r.table_name).filter((t) => !IGNORED_TABLES.has(t));
    const parts = tables.map((t) => `COALESCE((SELECT md5(string_agg(${rowText(t)}, '|' ORDER BY ${rowText(t)})) FROM "${t}" x), '-')`);
    return new DatabaseFingerprint(client, tables, `SELECT md5(concat_ws(',', ${parts.join(', ')})) AS digest`);
  }

  async digest(): Promise<string> {
    const { rows } = await this.client.query<{ digest: string }>(this.digestSql);
    return rows[0].digest;
  }

  async rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const t of this.tables) counts[t] = Number((await this.client.query(`SELECT count(*) AS n FROM "${t}"`)).rows[0].n);
    return counts;
  }

  close(): Promise<void> {
    return this.client.end();
  }
}
