#!/usr/bin/env node
'use strict';
// `node bench/search.js`: the search figures of docs/benchmarks.md (issue 32), on the built
// service with Postgres + BullMQ, in a scratch database:
//  1. seeds MESSAGES messages in CHANNELS channels straight into Postgres (bench/lib/search-corpus.js),
//     as a database from before search: no configuration recorded, no vectors, no index;
//  2. starts the service, which fills the vectors in batches and builds the GIN index CONCURRENTLY,
//     while a prober posts every PROBE_MS: how long that takes, and what a post waits meanwhile;
//  3. search p50/p95 for a rare word, a common word and a phrase, across all readable channels and
//     within one, as an agent that is a member of the private channels;
//  4. POST throughput (autocannon) with the trigger and the index, without the index, and without
//     the trigger either: each a copy of the measured database, rounds in rotating order;
//  5. index size per message.
// Options: --messages=N --channels=N --samples=N (searches per figure) --no-build.
// Durations: BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S (bench/config.js).
const { execSync } = require('node:child_process');
const os = require('node:os');
const cfg = require('./config');
const dist = require('./lib/dist');
const { createDatabase, runMigrations, withClient } = require('./lib/postgres');
const { deleteRedisPrefix } = require('./lib/redis');
const { runLoad } = require('./lib/load');
const { startService } = require('./lib/servers');
const { runStamp } = require('./lib/stamp');
const { median, percentile } = require('./lib/stats');
const { channelName, MEMBER, PHRASE, RARE_WORD, seedSearchCorpus } = require('./lib/search-corpus');

const arg = (name, fallback) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.slice(name.length + 3)) : fallback;
};
const MESSAGES = arg('messages', 1_000_000);
const CHANNELS = arg('channels', 1_000);
const SAMPLES = arg('samples', 20);
/** A figure stops sampling after this long (the common word across every channel is slow). */
const FIGURE_BUDGET_MS = 30_000;
const PROBE_MS = 50;
const POLL_MS = 250;
const UPKEEP_TIMEOUT_MS = 15 * 60_000;
const QUERIES = { rare: RARE_WORD, common: 'deploy', phrase: `"${PHRASE}"` };
const log = (msg) => process.stderr.write(`${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

async function json(url, { method = 'GET', token, body } = {}) {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Polls until the service has filled every vector and the index is valid; meanwhile a post every PROBE_MS, timed. */
async function watchUpkeep(dbUrl, service, token) {
  const started = Date.now();
  const latencies = [];
  let filledMs = null;
  let done = false;
  const prober = (async () => {
    for (let i = 0; !done; i++) {
      const { ms } = await timed(() => json(`${service.url}/api/v1/channels/${channelName('search', 0)}/messages`, { method: 'POST', token, body: { content: `probe ${i} during the backfill` } }));
      latencies.push(ms);
      await sleep(PROBE_MS);
    }
  })();
  await withClient(dbUrl, async (c) => {
    while (Date.now() - started < UPKEEP_TIMEOUT_MS) {
      const { rows } = await c.query(
        `SELECT s.reindex_through IS NULL AS filled, (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('messages_search_idx')) AS indexed FROM search_config s`,
      );
      if (rows[0].filled && filledMs === null) filledMs = Date.now() - started;
      if (rows[0].filled && rows[0].indexed) break;
      await sleep(POLL_MS);
    }
  });
  done = true;
  await prober;
  return { filledMs, indexedMs: Date.now() - started, probes: latencies.length, postP50Ms: percentile(latencies, 50), postP99Ms: percentile(latencies, 99), postMaxMs: Math.max(...latencies) };
}

async function searchFigures(service, token) {
  const figures = [];
  for (const [kind, q] of Object.entries(QUERIES)) {
    for (const scope of ['all', 'one']) {
      const params = new URLSearchParams({ q, ...(scope === 'one' ? { channel: channelName('search', 1) } : {}) });
      const url = `${service.url}/api/v1/search?${params}`;
      await json(url, { token }); // warm: plan and cache
      const samples = [];
      let results = 0;
      const started = Date.now();
      while (samples.length < SAMPLES && Date.now() - started < FIGURE_BUDGET_MS) {
        const { value, ms } = await timed(() => json(url, { token }));
        samples.push(ms);
        results = value.results.length;
      }
      const figure = { kind, q, scope, samples: samples.length, results, p50Ms: percentile(samples, 50), p95Ms: percentile(samples, 95) };
      log(`  search ${kind} (${q}) ${scope === 'all' ? 'all readable channels' : 'one channel'}: p50 ${figure.p50Ms.toFixed(1)} ms, p95 ${figure.p95Ms.toFixed(1)} ms over ${figure.samples}`);
      figures.push(figure);
    }
  }
  return figures;
}

/** The database as measured, copied (template) and changed: the POST figure's variants side by side. */
const VARIANTS = [
  { name: 'trigger and index', changes: [] },
  { name: 'trigger, no index', changes: ['DROP INDEX messages_search_idx'] },
  { name: 'neither', changes: ['DROP INDEX messages_search_idx', 'DROP TRIGGER messages_search_vector ON messages'] },
];

/**
 * POST throughput of the three variants, each its own database (a copy of the measured one) and
 * service, in rotating order (A B C, C B A, …) so a drift in the shared machine's load cancels;
 * medians of the rounds.
 */
async function postThroughput(stamp, sourceDb, serviceEnv, token) {
  const paths = Array.from({ length: cfg.CONNECTIONS }, (_, i) => `/api/v1/channels/${channelName('search', i)}/messages`);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const targets = [];
  try {
    for (const [i, variant] of VARIANTS.entries()) {
      const copy = await createDatabase(stamp, `post${i}`, sourceDb.name);
      targets.push({ ...variant, db: copy });
      await withClient(copy.url, async (c) => {
        for (const change of variant.changes) await c.query(change);
      });
      targets[i].service = await startService({ ...serviceEnv, databaseUrl: copy.url, label: `service ${variant.name}` });
    }
    const run = (t, durationS) => runLoad({ url: t.service.url, method: 'POST', paths, headers, body: cfg.POST_BODY, durationS, pid: t.service.pid });
    for (const t of targets) await run(t, cfg.WARMUP_S);
    const rounds = new Map(targets.map((t) => [t.name, []]));
    for (let round = 0; round < cfg.ROUNDS; round++) {
      for (const t of round % 2 === 0 ? targets : [...targets].reverse()) {
        const r = await run(t, cfg.DURATION_S);
        rounds.get(t.name).push(r);
        log(`  POST ${t.name}: round ${round + 1} ${Math.round(r.rps)} req/s p50 ${r.p50} ms p99 ${r.p99} ms, ${Math.round(r.cpuUsPerRequest)} µs service CPU/req, ${r.cpuBreakdownUs.postgres} µs Postgres CPU/req`);
        await sleep(cfg.SETTLE_MS);
      }
    }
    return targets.map((t) => {
      const rs = rounds.get(t.name);
      return { name: t.name, rps: median(rs.map((r) => r.rps)), p99: median(rs.map((r) => r.p99)), postgresUsPerRequest: median(rs.map((r) => r.cpuBreakdownUs.postgres)), serviceUsPerRequest: median(rs.map((r) => r.cpuUsPerRequest)) };
    });
  } finally {
    for (const t of targets) {
      await t.service?.stop();
      await t.db.drop();
    }
  }
}

async function main() {
  const started = new Date();
  log(`Qhorus search bench ${started.toISOString()}: ${MESSAGES} messages in ${CHANNELS} channels; ${os.cpus().length} CPUs, load average ${load()}`);
  if (!process.argv.includes('--no-build')) execSync('npx nest build', { cwd: dist.ROOT, stdio: 'inherit' });
  const stamp = runStamp();
  const db = await createDatabase(stamp, 'search');
  const queuePrefix = `qbench-search-${stamp}`;
  let service;
  try {
    await runMigrations(db.url);
    const seeded = await timed(() => withClient(db.url, (c) => seedSearchCorpus(c, { channels: CHANNELS, messages: MESSAGES })));
    await withClient(db.url, (c) => c.query('VACUUM ANALYZE messages'));
    log(`  seeded in ${(seeded.ms / 1000).toFixed(1)} s`);
    const { CONFIG_DEFAULTS } = dist.require.configDefaults();
    const serviceEnv = {
      queuePrefix,
      poolSize: CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE,
      env: { QHORUS_RATE_LIMIT_PER_SECOND: cfg.RATE_LIMIT_LIFTED, QHORUS_RATE_LIMIT_BURST: cfg.RATE_LIMIT_LIFTED, LOG_LEVEL: 'warn' },
    };
    service = await startService({ ...serviceEnv, databaseUrl: db.url });
    const { token } = await json(`${service.url}/api/v1/agents`, { method: 'POST', token: cfg.ADMIN_TOKEN, body: { name: MEMBER } });
    const upkeep = await watchUpkeep(db.url, service, token);
    log(`  vectors filled after ${(upkeep.filledMs / 1000).toFixed(1)} s, index valid after ${(upkeep.indexedMs / 1000).toFixed(1)} s; a post meanwhile: p50 ${upkeep.postP50Ms.toFixed(1)} ms, p99 ${upkeep.postP99Ms.toFixed(1)} ms, max ${upkeep.postMaxMs.toFixed(1)} ms (${upkeep.probes} posts)`);
    await withClient(db.url, (c) => c.query('ANALYZE messages'));
    const size = await withClient(db.url, async (c) => (await c.query(
      `SELECT pg_relation_size('messages_search_idx')::bigint AS index_bytes, (SELECT count(*) FROM messages)::bigint AS messages,
              (SELECT avg(pg_column_size(search_vector)) FROM messages)::float AS vector_bytes`,
    )).rows[0]);
    const indexBytesPerMessage = Number(size.index_bytes) / Number(size.messages);
    log(`  index ${(Number(size.index_bytes) / 1048576).toFixed(1)} MiB for ${size.messages} messages: ${indexBytesPerMessage.toFixed(1)} bytes/message; the stored vector ${size.vector_bytes.toFixed(1)} bytes/message`);
    const search = await searchFigures(service, token);
    await service.stop();
    service = undefined;
    const posts = await postThroughput(stamp, db, serviceEnv, token);
    const [withIndex, noIndex, neither] = posts;
    const costVsNoIndex = 1 - withIndex.rps / noIndex.rps;
    const costVsNeither = 1 - withIndex.rps / neither.rps;
    log(`  POST cost of the index: ${(costVsNoIndex * 100).toFixed(1)} %; of trigger and index: ${(costVsNeither * 100).toFixed(1)} % (target ≤ 10 %)`);
    const report = {
      started: started.toISOString(),
      finished: new Date().toISOString(),
      machine: { cpus: os.cpus().length, loadAverageAtEnd: load() },
      corpus: { messages: MESSAGES, channels: CHANNELS, seedMs: Math.round(seeded.ms) },
      upkeep,
      size: { indexBytes: Number(size.index_bytes), messages: Number(size.messages), indexBytesPerMessage, vectorBytesPerMessage: size.vector_bytes },
      search,
      posts,
      costVsNoIndex,
      costVsNeither,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  } finally {
    await service?.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix).catch(() => undefined);
  }
}

main().catch((err) => {
  log(err.stack ?? String(err));
  process.exit(1);
});
