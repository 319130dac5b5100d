#!/usr/bin/env node
'use strict';
// What one summary job costs the machine: CPU of this process (the compiled app, in process),
// of Postgres and of Redis, per post into a channel where no summary is ever due and per post
// into one at threshold 20; the difference, times posts ÷ jobs, is the cost of a job.
//   node bench/tools/job-cost.js      (after `npx nest build`)
require('reflect-metadata');
const cfg = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { cpuSnapshot, cpuPerRequestUs } = require('../lib/load');
const { createDatabase, withClient } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { runStamp } = require('../lib/stamp');
const { drainSummaries } = require('../scenarios/throughput');

const POSTS = Number(process.env.JOB_COST_POSTS ?? 3000);
const SUMMARY_THRESHOLD = 20;
const CONCURRENCY = 8;

async function measure(agent, channel, dbUrl) {
  const body = JSON.parse(cfg.POST_BODY);
  const before = cpuSnapshot(process.pid);
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < POSTS) await agent.expectOk('POST', `/api/v1/channels/${channel}/messages`, body);
  }));
  await drainSummaries(dbUrl);
  const perPost = cpuPerRequestUs(before, cpuSnapshot(process.pid), POSTS);
  const { rows } = await withClient(dbUrl, (c) =>
    c.query(`SELECT count(*)::int AS jobs FROM channel_summary_history h JOIN channels c ON c.id = h.channel_id WHERE c.name = $1`, [channel]),
  );
  return { perPost, commits: rows[0].jobs };
}

(async () => {
  const stamp = runStamp();
  const db = await createDatabase(stamp, 'jobcost');
  const prefix = `qbench-${stamp}-jobcost`;
  const { loadConfig } = dist.require.appConfig();
  const { createApp } = dist.require.bootstrap();
  const app = await createApp(loadConfig({
    DATABASE_URL: db.url, REDIS_URL: cfg.REDIS_URL, QHORUS_QUEUE_PREFIX: prefix, QHORUS_ADMIN_TOKEN: cfg.ADMIN_TOKEN,
    LOG_LEVEL: 'error', QHORUS_RATE_LIMIT_PER_SECOND: cfg.RATE_LIMIT_LIFTED, QHORUS_RATE_LIMIT_BURST: cfg.RATE_LIMIT_LIFTED,
  }));
  try {
    await app.listen(0, cfg.HOST);
    const url = `http://${cfg.HOST}:${app.getHttpServer().address().port}`;
    const { token } = await new JsonClient(url, cfg.ADMIN_TOKEN).expectOk('POST', '/api/v1/agents', { name: cfg.AGENT });
    const agent = new JsonClient(url, token, CONCURRENCY);
    await agent.expectOk('POST', '/api/v1/channels', { name: 'warm', summaryThreshold: SUMMARY_THRESHOLD });
    await agent.expectOk('POST', '/api/v1/channels', { name: 'quiet', summaryThreshold: cfg.NO_SUMMARY_THRESHOLD });
    await agent.expectOk('POST', '/api/v1/channels', { name: 'busy', summaryThreshold: SUMMARY_THRESHOLD });
    await measure(agent, 'warm', db.url); // JIT, pools, prepared statements
    const quiet = await measure(agent, 'quiet', db.url);
    const busy = await measure(agent, 'busy', db.url);
    agent.close();
    console.log(`posts: ${POSTS} per channel, ${CONCURRENCY} at a time; summary commits at threshold ${SUMMARY_THRESHOLD}: ${busy.commits}`);
    console.log('µs CPU per post      ', Object.keys(quiet.perPost).map((k) => k.padStart(13)).join(''));
    for (const [label, r] of [['no summary due', quiet], [`threshold ${SUMMARY_THRESHOLD}`, busy]]) {
      console.log(label.padEnd(21), Object.values(r.perPost).map((v) => String(v).padStart(13)).join(''));
    }
    const perJob = Object.keys(quiet.perPost).map((k) => Math.round(((busy.perPost[k] - quiet.perPost[k]) * POSTS) / busy.commits));
    console.log('µs CPU per commit    ', perJob.map((v) => String(v).padStart(13)).join(''));
  } finally {
    await app.close();
    await db.drop();
    await deleteRedisPrefix(prefix);
  }
})();
