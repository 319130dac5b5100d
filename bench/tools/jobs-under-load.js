#!/usr/bin/env node
'use strict';
// What the summary jobs cost the POST figure under the bench's own load: one agent and one
// channel per connection, 3 runs of 8 s, reporting req/s, posts per summary commit and CPU per
// request by consumer. Run it twice, at the default threshold and with jobs out of the way,
// and compare the CPU per request (the difference × posts per commit is the cost of a job):
//   node bench/tools/jobs-under-load.js            (after `npx nest build`; threshold 20)
//   TH=100000 node bench/tools/jobs-under-load.js  (no summary due)
//   ROLE=api node bench/tools/jobs-under-load.js   (jobs enqueued, no worker: the producer's share)
const cfg = require('../config');
const { JsonClient } = require('../lib/http');
const { runLoad } = require('../lib/load');
const { createDatabase, withClient } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { startService } = require('../lib/servers');
const { runStamp } = require('../lib/stamp');
const { drainSummaries } = require('../scenarios/throughput');
(async () => {
  const stamp = runStamp();
  const db = await createDatabase(stamp, 'jobsload');
  const queuePrefix = `qbench-${stamp}-jobsload`;
  const role = process.env.ROLE;
  const service = await startService({ databaseUrl: db.url, queuePrefix, poolSize: 10, env: role ? { QHORUS_ROLE: role } : {} });
  try {
    const admin = new JsonClient(service.url, cfg.ADMIN_TOKEN);
    const tokens = [];
    for (let i = 0; i < cfg.CONNECTIONS; i++) tokens.push((await admin.expectOk('POST', '/api/v1/agents', { name: `a-${i}` })).token);
    const agent = new JsonClient(service.url, tokens[0]);
    const names = Array.from({ length: cfg.CONNECTIONS }, (_, i) => `p-${i}`);
    for (const name of names) await agent.expectOk('POST', '/api/v1/channels', { name, summaryThreshold: Number(process.env.TH ?? cfg.DEFAULT_THRESHOLD) });
    const headers = tokens.map((t) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' }));
    const versions = () => withClient(db.url, async (c) => (await c.query('SELECT coalesce(sum(version),0)::int AS v FROM channel_summaries')).rows[0].v);
    for (let round = 0; round < 3; round++) {
      const v0 = await versions();
      const r = await runLoad({ url: service.url, method: 'POST', paths: names.map((n) => `/api/v1/channels/${n}/messages`), headers, body: cfg.POST_BODY, durationS: 8, pid: service.pid });
      const v1 = await versions();
      if (role !== 'api') await drainSummaries(db.url);
      const v2 = await versions();
      console.log(JSON.stringify({ rps: Math.round(r.rps), requests: r.requests, commitsDuring: v1 - v0, commitsAfter: v2 - v1, postsPerCommit: (r.requests / (v2 - v0)).toFixed(1), cpu: r.cpuBreakdownUs }));
    }
    agent.close();
  } finally {
    await service.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
})();
