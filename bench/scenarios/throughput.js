'use strict';
// POST message and GET summary: the service against the two bare baselines (plain and prepared
// statements), in rotating order (B P S, S P B, B P S … so a linear drift in the machine
// cancels), medians of the rounds.
const os = require('node:os');
const { DRAIN_TIMEOUT_MS, DURATION_S, ROUNDS, SETTLE_MS, WARMUP_S } = require('../config');
const { runLoad } = require('../lib/load');
const { withClient } = require('../lib/postgres');
const { median } = require('../lib/stats');

const DRAIN_POLL_MS = 100;
/** CLOCK_MONOTONIC in µs: the clock V8 stamps CPU profile samples with, so windows line up. */
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
/** The measured runs (title, server pid, from, to), for the cpu-profile tools' `--window`. */
const measuredWindows = [];
const cpuBreakdown = (r) => Object.entries(r.cpuBreakdownUs).map(([k, us]) => `${k} ${us}`).join(', ');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until no service channel has a due backlog (its summary jobs have caught up). */
async function drainSummaries(dbUrl) {
  const started = Date.now();
  await withClient(dbUrl, async (c) => {
    while (Date.now() - started < DRAIN_TIMEOUT_MS) {
      const { rows } = await c.query(
        `SELECT count(*)::int AS due FROM channels c JOIN channel_summaries s ON s.channel_id = c.id
         WHERE c.last_seq - s.covers_through_seq >= c.summary_threshold`,
      );
      if (rows[0].due === 0) return;
      await sleep(DRAIN_POLL_MS);
    }
  });
  return Date.now() - started;
}

/** Who runs first in each round: forwards, then backwards (the Nest floor only where given). */
const ORDER = ['baseline', 'prepared', 'floor', 'service'];

/**
 * Runs one figure. `baseline`, `prepared`, `floor` (optional): {url, pid, paths, headers};
 * `service`: the same plus dbUrl.
 * After every service run the bench waits for its summary backlog to drain, so the jobs a run
 * leaves behind never eat into the next baseline run.
 */
async function compare({ title, method, body, baseline, prepared, floor, service }) {
  const servers = { baseline, prepared, floor, service };
  const order = ORDER.filter((who) => servers[who]);
  const run = async (target, durationS, measured = false) => {
    const from = monotonicUs();
    const r = await runLoad({ url: target.url, method, paths: target.paths, headers: target.headers, body, durationS, pid: target.pid, expectStatus: target.expectStatus });
    if (measured) measuredWindows.push({ title, pid: target.pid, fromUs: from, toUs: monotonicUs() });
    if (target.dbUrl) r.drainMs = await drainSummaries(target.dbUrl);
    await sleep(SETTLE_MS);
    return r;
  };
  const loadAverage = os.loadavg()[0];
  process.stderr.write(`  ${title}: warm-up (load average ${loadAverage.toFixed(2)})\n`);
  for (const who of order) await run(servers[who], WARMUP_S);
  const runs = Object.fromEntries(order.map((who) => [who, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const who of round % 2 === 0 ? order : [...order].reverse()) {
      const r = await run(servers[who], DURATION_S, true);
      runs[who].push(r);
      process.stderr.write(`  ${title}: round ${round + 1} ${who.padEnd(8)} ${Math.round(r.rps)} req/s p50 ${r.p50} ms p99 ${r.p99} ms, ${Math.round(r.cpuUsPerRequest)} µs CPU/req (${cpuBreakdown(r)})\n`);
    }
  }
  const summarise = (rs) => ({
    rps: median(rs.map((r) => r.rps)),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    cpuUsPerRequest: median(rs.map((r) => r.cpuUsPerRequest)),
    runs: rs,
  });
  return { title, loadAverage, ...Object.fromEntries(order.map((who) => [who, summarise(runs[who])])) };
}

module.exports = { compare, drainSummaries, measuredWindows };
