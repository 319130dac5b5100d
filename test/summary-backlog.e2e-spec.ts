import { Client } from 'pg';
import { backlogReached, backlogReachedSql, backlogSql } from '../apps/channel-service/src/channels/summary-backlog';
import { TEST_PG_ADMIN_URL } from './support/test-database';

describe('"the backlog reached the threshold": the SQL and its TypeScript twin agree', () => {
  let pg: Client;
  beforeAll(async () => {
    pg = new Client({ connectionString: TEST_PG_ADMIN_URL });
    await pg.connect();
  });
  afterAll(() => pg.end());

  it('for every last seq, watermark and threshold around the edges', async () => {
    const cases: [number, number, number][] = [];
    for (const through of [0, 1, 19, 20, 21, 40]) for (const watermark of [0, 1, 20]) for (const threshold of [1, 20, 21]) cases.push([through, watermark, threshold]);
    const sql = `SELECT ${backlogSql('t.through', 't.watermark')} AS backlog, ${backlogReachedSql(backlogSql('t.through', 't.watermark'), 't.threshold')} AS reached
      FROM unnest($1::bigint[], $2::bigint[], $3::int[]) WITH ORDINALITY AS t(through, watermark, threshold, ord) ORDER BY t.ord`;
    const { rows } = await pg.query<{ backlog: string; reached: boolean }>(sql, [cases.map((c) => c[0]), cases.map((c) => c[1]), cases.map((c) => c[2])]);
    const inSql = rows.map((r, i) => ({ case: cases[i], reached: r.reached }));
    const inTs = cases.map((c, i) => ({ case: c, reached: backlogReached(Number(rows[i].backlog), c[2]) }));
    expect(inTs).toEqual(inSql);
    expect(inSql.some((r) => r.reached)).toBe(true);
    expect(inSql.some((r) => !r.reached)).toBe(true);
  });
});
