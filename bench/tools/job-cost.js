#!/usr/bin/env node
'use strict';
// What one summary job costs the machine, by consumer (service process, Postgres, Redis, all of
// it). Posts the same messages, one at a time with a pause after every 20, into a channel where
// no summary is ever due and into one at threshold 20; the CPU difference divided by the
// number of summary commits is the cost of a job.
//   node bench/tools/job-cost.js      (after `npx nest build`)
const cfg = require('../config');
const { JsonClient } = require('../lib/http');
const { cpuSnapshot, cpuPerRequestUs } = require('../lib/load');
const { createDatabase, withClient } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { startService } = require('../lib/servers');
const { runStamp } = require('../lib/stamp');
const { drainSummaries } = require('../scenarios/throughput');

const CYCLES = Number(process.env.JOB_COST_CYCLES ?? 150);
const THRESHOLD = 20;
/** Lets each job run on its own, as it does between bursts of posts. */
const PAUSE_MS = 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(agent, service, dbUrl, channel) {
  const body = JSON.parse(cfg.POST_BODY);
  const before = cpuSnapshot(service.pid);
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    for (let i = 0; i < THRESHOLD; i++) await agent.expectOk('POST', `/api/v1/channels/${channel}/messages`, body);
    await sleep(PAUSE_MS);
  }
  await drainSummaries(dbUrl);
  const total = cpuPerRequestUs(before, cpuSnapshot(service.pid), 1);
  const { rows } = await withClient(dbUrl, (c) =>
    // The slot's version counts every commit (the history keeps only the newest QHORUS_SUMMARY_HISTORY_KEEP).
    c.query(`SELECT coalesce(max(s.version), 0)::int AS commits FROM channels c LEFT JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = $1`, [channel]),
  );
  return { total, commits: rows[0].commits };
}

(async () => {
  const stamp = runStamp();
  const db = await createDatabase(stamp, 'jobcost');
  const queuePrefix = `qbench-${stamp}-jobcost`;
  // One agent posts back to back, faster than the default per-agent rate: the limit is lifted so
  // the tool measures the job, not 429s (this is a cost probe, not a headline figure).
  const env = { QHORUS_RATE_LIMIT_PER_SECOND: '1000000', QHORUS_RATE_LIMIT_BURST: '1000000' };
  const service = await startService({ databaseUrl: db.url, queuePrefix, poolSize: 10, env, nodeArgs: process.env.JOB_COST_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.JOB_COST_PROFILE_DIR}`] : [] });
  try {
    const { token } = await new JsonClient(service.url, cfg.ADMIN_TOKEN).expectOk('POST', '/api/v1/agents', { name: cfg.AGENT });
    const agent = new JsonClient(service.url, token, 1);
    for (const [name, summaryThreshold] of [['warm', THRESHOLD], ['quiet', cfg.NO_SUMMARY_THRESHOLD], ['busy', THRESHOLD]]) {
      await agent.expectOk('POST', '/api/v1/channels', { name, summaryThreshold });
    }
    await run(agent, service, db.url, 'warm'); // JIT, pools, prepared statements
    // Alternating, so a drift in the machine's load shows on both sides; the sums of both rounds.
    const rounds = [];
    for (const name of ['quiet', 'busy', 'busy', 'quiet']) rounds.push({ name, ...(await run(agent, service, db.url, name)) });
    agent.close();
    const sum = (name) => {
      const mine = rounds.filter((r) => r.name === name);
      const total = Object.fromEntries(Object.keys(mine[0].total).map((k) => [k, mine.reduce((n, r) => n + r.total[k], 0)]));
      return { total, commits: mine[mine.length - 1].commits };
    };
    const quiet = sum('quiet');
    const busy = sum('busy');
    const perJob = Object.fromEntries(Object.keys(busy.total).map((k) => [k, Math.round((busy.total[k] - quiet.total[k]) / busy.commits)]));
    console.log(`${2 * CYCLES * THRESHOLD} posts per channel; ${busy.commits} summary commits at threshold ${THRESHOLD}`);
    console.log('CPU µs in all, no summary due:', JSON.stringify(quiet.total));
    console.log('CPU µs in all, threshold 20:  ', JSON.stringify(busy.total));
    console.log('CPU µs per summary job:      ', JSON.stringify(perJob));
  } finally {
    await service.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
})();
