import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../apps/channel-service/src/database/connection';
import { THREAD_BACKFILL_BATCH, ThreadIndex1765600000000 } from '../migrations/1765600000000-thread-index';
import { MIGRATIONS } from './support/migrations';
import { createTestDatabase } from './support/test-database';

/** Messages of the long channel: more than two backfill batches, so threads span batches. */
const LONG_CHANNEL_PAIRS = Math.ceil((THREAD_BACKFILL_BATCH * 2.5) / 2);

/** The thread index migration backfills the index from messages written before it existed. */
describe('thread index migration: backfill', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase('thread-backfill');
    // Every migration before the thread index (later ones may build on its table).
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(ThreadIndex1765600000000));
    const old = new DataSource({ ...dataSourceOptions(db.url, 1), migrations: before } as never);
    await old.initialize();
    await old.runMigrations({ transaction: 'all' });
    // Written by the service before the thread index existed.
    await old.query(`INSERT INTO channels (id, name, summary_threshold, summariser, created_by, last_seq) VALUES (1, 'legacy', 20, 'heuristic', 'alice', 10), (2, 'long', 20, 'heuristic', 'alice', ${LONG_CHANNEL_PAIRS * 2 + 1})`);
    const legacy: [number, string, string, string | null, string | null][] = [
      [1, 'QUERY', 'alice', 'q1', 'bob'],
      [2, 'RESPONSE', 'bob', 'q1', null],
      [3, 'COMMAND', 'alice', 'c1', null],
      [4, 'HANDOFF', 'bob', 'c1', 'carol'],
      [5, 'STATUS', 'bob', 's1', null],
      [6, 'DONE', 'bob', 'c2', null],
      [7, 'COMMAND', 'alice', 'c3', 'bob'],
      [8, 'DONE', 'bob', 'c3', null],
      [9, 'COMMAND', 'carol', 'c3', 'dave'],
      [10, 'STATUS', 'alice', null, null],
    ];
    for (const [seq, type, sender, correlationId, target] of legacy) {
      await old.query(`INSERT INTO messages (channel_id, seq, type, sender, content, correlation_id, target) VALUES (1, $1, $2, $3, 'x', $4, $5)`, [seq, type, sender, correlationId, target]);
    }
    // Long channel: after one follow-up, QUERY i (even seq) answered at the next (odd) seq, each its
    // own thread: a batch boundary (every batch-size messages with a correlation id) falls inside a thread.
    await old.query(`INSERT INTO messages (channel_id, seq, type, sender, content, correlation_id) VALUES (2, 1, 'STATUS', 'alice', 'x', 'noise')`);
    await old.query(`
      INSERT INTO messages (channel_id, seq, type, sender, content, correlation_id)
      SELECT 2, s, CASE WHEN s % 2 = 0 THEN 'QUERY' ELSE 'RESPONSE' END, CASE WHEN s % 2 = 0 THEN 'alice' ELSE 'bob' END, 'x', 'q' || (s / 2)
      FROM generate_series(2, ${LONG_CHANNEL_PAIRS * 2 + 1}) s`);
    // A summary the old pipeline stored for q1.
    await old.query(`INSERT INTO thread_summaries (channel_id, correlation_id, text, annotations, first_seq, last_seq, message_count, closed_by) VALUES (1, 'q1', 't', '{}', 1, 2, 2, 'DONE')`);
    await old.destroy();

    ds = new DataSource(dataSourceOptions(db.url, 1));
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('folds each channel\'s messages in seq order through the thread rules', async () => {
    const rows = await ds.query(`
      SELECT correlation_id, status, type, owner, opener, opened_seq::int, closed_seq::int, updated_seq::int, summarised_seq::int
      FROM threads WHERE channel_id = 1 ORDER BY correlation_id`);
    expect(rows).toEqual([
      { correlation_id: 'c1', status: 'open', type: 'COMMAND', owner: 'carol', opener: 'alice', opened_seq: 3, closed_seq: null, updated_seq: 4, summarised_seq: null },
      // Follow-ups without an opener: a row with no thread, so the post statement can always upsert.
      { correlation_id: 'c2', status: null, type: null, owner: null, opener: null, opened_seq: null, closed_seq: null, updated_seq: 6, summarised_seq: null },
      { correlation_id: 'c3', status: 'open', type: 'COMMAND', owner: 'dave', opener: 'carol', opened_seq: 9, closed_seq: null, updated_seq: 9, summarised_seq: null },
      { correlation_id: 'q1', status: 'answered', type: 'QUERY', owner: 'bob', opener: 'alice', opened_seq: 1, closed_seq: 2, updated_seq: 2, summarised_seq: 2 },
      { correlation_id: 's1', status: null, type: null, owner: null, opener: null, opened_seq: null, closed_seq: null, updated_seq: 5, summarised_seq: null },
    ]);
  });

  it('keeps folding across batches: every thread of the long channel is answered at the seq after it opened', async () => {
    const [summary] = await ds.query(`
      SELECT count(*)::int AS threads, count(*) FILTER (WHERE status = 'answered' AND closed_seq = opened_seq + 1 AND opener = 'alice')::int AS answered
      FROM threads WHERE channel_id = 2 AND status IS NOT NULL`);
    expect(summary).toEqual({ threads: LONG_CHANNEL_PAIRS, answered: LONG_CHANNEL_PAIRS });
  });

  it('makes closed threads without a summary due (the sweep\'s predicate), and not those already summarised', async () => {
    const due = await ds.query(`
      SELECT channel_id::int, count(*)::int AS n FROM threads
      WHERE status IN ('answered', 'done', 'declined', 'failed') AND (summarised_seq IS NULL OR summarised_seq < closed_seq)
      GROUP BY channel_id ORDER BY channel_id`);
    expect(due).toEqual([{ channel_id: 2, n: LONG_CHANNEL_PAIRS }]);
  });

  it('down drops the index table', async () => {
    const runner = ds.createQueryRunner();
    try {
      await new ThreadIndex1765600000000().down(runner);
      expect((await runner.query(`SELECT to_regclass('threads') AS t`))[0].t).toBeNull();
    } finally {
      await runner.release();
    }
  });
});
