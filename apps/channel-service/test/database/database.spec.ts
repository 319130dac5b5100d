import { DatabaseError } from 'pg';
import { Database, MAX_PREPARED_STATEMENTS, StatementPool } from '../../src/database/database';

/** A pg pool that records what it was asked to run, and how each connection was given back. */
function fakePool(fail?: (text: string) => Error | undefined) {
  const sent: { name?: string; text: string; values: unknown[] }[] = [];
  const released: (Error | undefined)[] = [];
  let ended = 0;
  const client = {
    query: async (statement: { name?: string; text: string; values: unknown[] }) => {
      sent.push(statement);
      const error = fail?.(statement.text);
      if (error) throw error;
      return { rows: [{ echoed: statement.values }] };
    },
    release: (err?: Error) => {
      released.push(err);
    },
  };
  const pool = {
    connect: async () => client,
    end: async () => {
      ended++;
    },
  };
  return { pool: pool as unknown as StatementPool, sent, released, ended: () => ended };
}

describe('Database', () => {
  it('prepares each statement text once: the same text always gets the same name, another text another name', async () => {
    const { pool, sent } = fakePool();
    const db = new Database(pool);
    await db.query('SELECT 1 WHERE $1', [true]);
    await db.query('SELECT 2', []);
    await db.query('SELECT 1 WHERE $1', [false]);
    expect(sent.map((s) => s.name)).toEqual([sent[0].name, sent[1].name, sent[0].name]);
    expect(sent[0].name).not.toEqual(sent[1].name);
    expect(sent[0].name).toMatch(/^qhorus_\d+$/);
  });

  it('returns the rows pg returned, with the values passed through', async () => {
    const { pool } = fakePool();
    expect(await new Database(pool).query('SELECT $1', ['x'])).toEqual([{ echoed: ['x'] }]);
  });

  it('runs texts beyond the bound unprepared, so neither side caches without limit', async () => {
    const { pool, sent } = fakePool();
    const db = new Database(pool);
    for (let i = 0; i <= MAX_PREPARED_STATEMENTS; i++) await db.query(`SELECT ${i}`);
    expect(new Set(sent.slice(0, MAX_PREPARED_STATEMENTS).map((s) => s.name)).size).toBe(MAX_PREPARED_STATEMENTS);
    expect(sent[MAX_PREPARED_STATEMENTS].name).toBeUndefined();
    await db.query('SELECT 0');
    expect(sent[sent.length - 1].name).toBe(sent[0].name);
  });

  it('ends its pool once, however often it is closed (pg throws on a second end)', async () => {
    const { pool, ended } = fakePool();
    const db = new Database(pool);
    await Promise.all([db.close(), db.close()]);
    await db.close();
    expect(ended()).toBe(1);
  });

  it('keeps a connection whose statement Postgres refused (its prepared statements stay valid), drops one that broke', async () => {
    const refused = new DatabaseError('duplicate key value violates unique constraint', 0, 'error');
    const cut = new Error('Connection terminated unexpectedly');
    const { pool, released } = fakePool((text) => (text === 'INSERT dup' ? refused : text === 'SELECT cut' ? cut : undefined));
    const db = new Database(pool);
    await db.query('SELECT ok');
    await expect(db.query('INSERT dup')).rejects.toBe(refused);
    await expect(db.query('SELECT cut')).rejects.toBe(cut);
    expect(released).toEqual([undefined, undefined, cut]);
  });
});
