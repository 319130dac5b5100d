'use strict';
// The service against itself in another configuration, in alternating rounds (A B, B A, …), medians:
// tracing on against off (the same POST load), the embedded default against Postgres + Redis.
const { createServer } = require('node:http');
const { DURATION_S, ROUNDS, SETTLE_MS, WARMUP_S } = require('../config');
const { runLoad } = require('../lib/load');
const { median } = require('../lib/stats');
const { drainSummaries } = require('./throughput');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `load` ({method, body, paths, headers}) against `a` and `b` ({label, url, pid, dbUrl?}) in
 * alternating order; after each run on a server with a dbUrl, its summary backlog drains first.
 */
async function alternate(title, load, a, b) {
  const run = async (target, durationS) => {
    const r = await runLoad({ url: target.url, pid: target.pid, durationS, ...load, paths: target.paths ?? load.paths, headers: target.headers ?? load.headers });
    if (target.dbUrl) await drainSummaries(target.dbUrl);
    await sleep(SETTLE_MS);
    return r;
  };
  process.stderr.write(`  ${title}: warm-up\n`);
  await run(a, WARMUP_S);
  await run(b, WARMUP_S);
  const runs = { a: [], b: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const who of round % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      const target = who === 'a' ? a : b;
      const r = await run(target, DURATION_S);
      runs[who].push(r);
      process.stderr.write(`  ${title}: round ${round + 1} ${target.label} ${Math.round(r.rps)} req/s p50 ${r.p50} ms p99 ${r.p99} ms, ${Math.round(r.cpuUsPerRequest)} µs CPU/req\n`);
    }
  }
  const summarise = (rs) => ({ rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), cpuUsPerRequest: median(rs.map((r) => r.cpuUsPerRequest)) });
  return { title, a: { label: a.label, ...summarise(runs.a) }, b: { label: b.label, ...summarise(runs.b) } };
}

/**
 * A collector that takes OTLP/HTTP exports and drops them (what a local collector costs the
 * service is the export itself, not the collector's work). Returns {endpoint, exports, close}.
 */
async function startSinkCollector(host) {
  let exports = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, host, resolve));
  return {
    endpoint: `http://${host}:${server.address().port}`,
    exports: () => exports,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}

module.exports = { alternate, startSinkCollector };
