'use strict';
// Sweep round time with many idle channels: SWEEP.CHANNELS channels whose summaries are current
// (a PENDING_SHARE of them with a backlog under their threshold: idle too, nothing to do), and
// SWEEP.DUE due ones. Times the service's own sweep query (the compiled SummaryRepository, on a
// plain pg connection) over SWEEP.ROUNDS rounds, and, for comparison, the full-scan query the
// sweep ran before the indexed flags (migration 1765300000000). Checks both find the same channels.
// Run alone: `node bench/scenarios/sweep.js` (after `npx nest build`), or `node bench/run.js --only=sweep`. Prints JSON.
require('reflect-metadata');
const { SWEEP } = require('../config');
const dist = require('../lib/dist');
const { createDatabase, runMigrations, withClient } = require('../lib/postgres');
const { runStamp } = require('../lib/stamp');
const { percentile } = require('../lib/stats');

/** The sweep's query before this change: every channel × summary row, every round (for the comparison only). */
const FULL_SCAN_SQL = `
  SELECT c.id FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
  WHERE c.last_seq > s.covers_through_seq
    AND (c.last_seq - s.covers_through_seq >= c.summary_threshold
         OR s.refresh_through_seq > s.covers_through_seq
         OR (c.update_after_seconds IS NOT NULL
             AND now() - COALESCE(s.updated_at, c.created_at) >= make_interval(secs => c.update_after_seconds)))
    AND (s.last_error_at IS NULL OR s.last_error_at < now() - make_interval(secs => $1::double precision / 1000))`;

const THRESHOLD = 20;
const COVERED_THROUGH = 100;

async function seed(client) {
  const pendingEvery = Math.round(1 / SWEEP.PENDING_SHARE);
  // Idle: last_seq = covers (COVERED_THROUGH), or a few messages past it on every pendingEvery-th.
  await client.query(
    `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq, summary_due)
     SELECT 'idle-' || g, $1::int, 'heuristic', 'bench', $2::bigint + CASE WHEN g % $3::int = 0 THEN 3 ELSE 0 END, false
     FROM generate_series(1, $4::int) g`,
    [THRESHOLD, COVERED_THROUGH, pendingEvery, SWEEP.CHANNELS],
  );
  await client.query(
    `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq, summary_due)
     SELECT 'due-' || g, $1::int, 'heuristic', 'bench', $2::bigint + $1::int, true FROM generate_series(1, $3::int) g`,
    [THRESHOLD, COVERED_THROUGH, SWEEP.DUE],
  );
  await client.query(
    `INSERT INTO channel_summaries (channel_id, covers_through_seq, version, updated_at, updated_by)
     SELECT id, $1::bigint, 1, now() - interval '1 minute', 'bench' FROM channels`,
    [COVERED_THROUGH],
  );
  await client.query('VACUUM ANALYZE channels');
  await client.query('VACUUM ANALYZE channel_summaries');
}

async function time(rounds, fn) {
  const ms = [];
  let found;
  for (let i = 0; i < rounds; i++) {
    const started = process.hrtime.bigint();
    found = await fn();
    ms.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { medianMs: percentile(ms, 50), p95Ms: percentile(ms, 95), found };
}

async function main() {
  const db = await createDatabase(runStamp(), 'sweep');
  try {
    await runMigrations(db.url);
    return await withClient(db.url, async (client) => {
      const seedStarted = Date.now();
      await seed(client);
      const seedMs = Date.now() - seedStarted;
      const { SummaryRepository } = dist.require.summaryRepository();
      // Named (prepared) statements, as the service's Database sends them: after a few runs Postgres may switch to a generic plan.
      const names = new Map();
      const named = (text) => names.get(text) ?? names.set(text, `bench_${names.size + 1}`).get(text);
      const repository = new SummaryRepository({ query: (text, values) => client.query({ name: named(text), text, values }).then((r) => r.rows) });
      const indexed = await time(SWEEP.ROUNDS, () => repository.dueChannelIds(SWEEP.ERROR_BACKOFF_MS, SWEEP.BATCH));
      const fullScan = await time(SWEEP.ROUNDS, () => client.query(FULL_SCAN_SQL, [SWEEP.ERROR_BACKOFF_MS]).then((r) => r.rows.map((row) => String(row.id))));
      const same = [...indexed.found].sort().join() === [...fullScan.found].sort().join();
      const plan = (await client.query(`EXPLAIN ${await sweepStatement(SummaryRepository)}`, [SWEEP.ERROR_BACKOFF_MS, SWEEP.BATCH])).rows;
      return {
        channels: SWEEP.CHANNELS + SWEEP.DUE,
        idle: SWEEP.CHANNELS,
        idleWithBacklog: Math.floor(SWEEP.CHANNELS / Math.round(1 / SWEEP.PENDING_SHARE)),
        due: SWEEP.DUE,
        rounds: SWEEP.ROUNDS,
        seedMs,
        indexed: { medianMs: indexed.medianMs, p95Ms: indexed.p95Ms, found: indexed.found.length },
        fullScan: { medianMs: fullScan.medianMs, p95Ms: fullScan.p95Ms, found: fullScan.found.length },
        sameChannels: same,
        usesIndexes: plan.some((r) => /summary_due_idx/.test(Object.values(r)[0])),
      };
    });
  } finally {
    await db.drop();
  }
}

/** The statement text the repository sends, captured from one call, so EXPLAIN looks at exactly what the service runs. */
async function sweepStatement(SummaryRepository) {
  let text = '';
  await new SummaryRepository({ query: async (sql) => ((text = sql), []) }).dueChannelIds(0, 1);
  return text;
}

if (require.main === module) {
  main().then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}

module.exports = { main };
