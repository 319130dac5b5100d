import { DatabaseError } from 'pg';
import { Database, StatementPool } from '../../src/database/database';

/** A pg client that records statement texts (BEGIN/COMMIT/ROLLBACK arrive as plain strings). */
function fakePool(fail?: (text: string) => Error | undefined) {
  const texts: string[] = [];
  const released: (Error | undefined)[] = [];
  const client = {
    query: async (statement: string | { text: string }) => {
      const text = typeof statement === 'string' ? statement : statement.text;
      texts.push(text);
      const error = fail?.(text);
      if (error) throw error;
      return { rows: [{ text }] };
    },
    release: (err?: Error) => released.push(err),
  };
  return { pool: { connect: async () => client, end: async () => undefined } as unknown as StatementPool, texts, released };
}

describe('Database.transaction', () => {
  it('runs the work between BEGIN and COMMIT on one connection and answers its result', async () => {
    const { pool, texts, released } = fakePool();
    const result = await new Database(pool).transaction(async (tx) => (await tx.query<{ text: string }>('UPDATE a'))[0].text);
    expect(result).toBe('UPDATE a');
    expect(texts).toEqual(['BEGIN', 'UPDATE a', 'COMMIT']);
    expect(released).toEqual([undefined]);
  });

  it('rolls back and rethrows when the work throws; a statement Postgres refused keeps the connection', async () => {
    const refused = new DatabaseError('duplicate key', 0, 'error');
    const { pool, texts, released } = fakePool((t) => (t === 'INSERT b' ? refused : undefined));
    await expect(new Database(pool).transaction((tx) => tx.query('INSERT b'))).rejects.toBe(refused);
    expect(texts).toEqual(['BEGIN', 'INSERT b', 'ROLLBACK']);
    expect(released).toEqual([undefined]);
  });

  it('drops the connection when the failure was not Postgres refusing a statement (a timeout, a cut socket)', async () => {
    const cut = new Error('Connection terminated');
    const { pool, released } = fakePool((t) => (t === 'SELECT c' ? cut : undefined));
    await expect(new Database(pool).transaction((tx) => tx.query('SELECT c'))).rejects.toBe(cut);
    expect(released).toEqual([cut]);
  });
});
