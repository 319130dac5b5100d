#!/usr/bin/env node
'use strict';
// Round trips per request, counted where they leave the process: every Postgres statement (pg
// Client.query) and every Redis command (ioredis sendCommand), grouped. Runs the compiled app
// in process on a fresh database and its own Redis prefix.
//   node bench/tools/queries-per-request.js      (after `npx nest build`)
require('reflect-metadata');
const pg = require('pg');
const IORedis = require('ioredis');
const cfg = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { createDatabase } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { runStamp } = require('../lib/stamp');

const REQUESTS = 200;
const SUMMARY_THRESHOLD = 20;
const CONCURRENCY = 4;
const SETTLE_MS = 1_500;
const counts = new Map();
let counting = false;
const count = (key) => counting && counts.set(key, (counts.get(key) ?? 0) + 1);

const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (q, ...rest) {
  count(`pg    ${String(typeof q === 'string' ? q : q?.text).replace(/\s+/g, ' ').trim().slice(0, 80)}`);
  return pgQuery.call(this, q, ...rest);
};
const redisSend = IORedis.prototype.sendCommand;
IORedis.prototype.sendCommand = function (command, ...rest) {
  count(`redis ${command.name}${command.name === 'evalsha' ? ` ${String(command.args[0]).slice(0, 8)}` : ''}`);
  return redisSend.call(this, command, ...rest);
};

async function measure(label, requests, fn) {
  counts.clear();
  counting = true;
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < requests) await fn(next++);
  }));
  await new Promise((r) => setTimeout(r, SETTLE_MS)); // the jobs those requests triggered
  counting = false;
  console.log(`\n${label} (${requests} requests): per request`);
  for (const [k, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${(n / requests).toFixed(3).padStart(7)}  ${k}`);
}

(async () => {
  const stamp = runStamp();
  const db = await createDatabase(stamp, 'roundtrips');
  const prefix = `qbench-${stamp}-roundtrips`;
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
    await agent.expectOk('POST', '/api/v1/channels', { name: 'quiet', summaryThreshold: cfg.NO_SUMMARY_THRESHOLD });
    await agent.expectOk('POST', '/api/v1/channels', { name: 'busy', summaryThreshold: SUMMARY_THRESHOLD });
    const body = JSON.parse(cfg.POST_BODY);
    await measure('GET summary', REQUESTS, () => agent.expectOk('GET', '/api/v1/channels/quiet/summary'));
    await measure('POST message, no summary due', REQUESTS, () => agent.expectOk('POST', '/api/v1/channels/quiet/messages', body));
    await measure(`POST message, threshold ${SUMMARY_THRESHOLD} (incl. the summary jobs)`, REQUESTS, () => agent.expectOk('POST', '/api/v1/channels/busy/messages', body));
    agent.close();
  } finally {
    await app.close();
    await db.drop();
    await deleteRedisPrefix(prefix);
  }
})();
