#!/usr/bin/env node
'use strict';
// `npm run bench`: builds the service, starts it in production mode (Postgres + BullMQ) next to
// a bare Fastify + pg baseline, and measures the figures of docs/benchmarks.md.
//   --only=mcp,post,get,conditional,batch,tracing,embedded,freshness,heuristic,linearity,capacity,sweep,wakeup   a subset (default: all)
//   --profile                                       all three servers under `node --cpu-prof` (see bench/tools/)
//   --no-build                                      reuse dist/
// Durations: BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S (see bench/config.js).
const { execFileSync, execSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const cfg = require('./config');
const dist = require('./lib/dist');
const { JsonClient } = require('./lib/http');
const { registerServerDatabase } = require('./lib/load');
const { channelNames, copySlotsToBaseline, createBaselineChannels, seedSummaries } = require('./lib/fixtures');
const { createDatabase, runMigrations } = require('./lib/postgres');
const { deleteRedisPrefix } = require('./lib/redis');
const { renderReport } = require('./lib/report');
const { startBaseline, startNestFloor, startService } = require('./lib/servers');
const { runStamp } = require('./lib/stamp');
const { compare, measuredWindows } = require('./scenarios/throughput');
const { measureFreshness } = require('./scenarios/freshness');
const { alternate, startSinkCollector } = require('./scenarios/variants');
const { measureToolsList } = require('./scenarios/mcp-tools');

const ALL = ['mcp', 'post', 'get', 'conditional', 'batch', 'tracing', 'embedded', 'freshness', 'heuristic', 'linearity', 'capacity', 'sweep', 'wakeup'];
/** The figures that need the four HTTP servers started. */
const HTTP_FIGURES = ['mcp', 'post', 'get', 'conditional', 'batch', 'tracing', 'embedded', 'freshness'];
const args = process.argv.slice(2);
const only = (args.find((a) => a.startsWith('--only=')) ?? `--only=${ALL.join(',')}`).slice('--only='.length).split(',');
const unknown = only.filter((name) => !ALL.includes(name));
if (unknown.length > 0) {
  console.error(`unknown --only figure(s): ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}
const wants = (name) => only.includes(name);
const PROFILE_DIR = join(os.tmpdir(), 'qhorus-bench-profiles');

const POST_CHANNELS = channelNames('post', cfg.CHANNELS);
const NO_SUMMARY_CHANNELS = channelNames('nosum', cfg.CHANNELS);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const log = (msg) => process.stderr.write(`${msg}\n`);

/** A child node script that prints one JSON line last; optionally pinned to one CPU. */
function runJsonScript(script, env = {}, cpu) {
  const argv = [process.execPath, join(__dirname, script)];
  const [cmd, ...rest] = cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
  const out = execFileSync(cmd, rest, { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop());
}

/** Registers the bench's fleet (one agent per connection) and its channels on a server; returns their headers. */
async function fleet(url, channels) {
  const admin = new JsonClient(url, cfg.ADMIN_TOKEN);
  const tokens = [];
  for (let i = 0; i < cfg.CONNECTIONS; i++) tokens.push((await admin.expectOk('POST', '/api/v1/agents', { name: `${cfg.AGENT}-${i}` })).token);
  const agent = new JsonClient(url, tokens[0]);
  for (const name of channels) await agent.expectOk('POST', '/api/v1/channels', { name });
  agent.close();
  admin.close();
  return tokens.map((t) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' }));
}

/** A figure that fails is reported as failed; the others still run and the report is still printed. */
function attempt(name, failures, fn) {
  try {
    return fn();
  } catch (e) {
    log(`  ${name} FAILED: ${e.message.split('\n')[0]}`);
    failures.push(name);
    return null;
  }
}

async function main() {
  const failures = [];
  const report = { figures: [], mcp: null, batch: null, tracing: null, embedded: null, freshness: null, heuristic: null, linearity: null, capacity: null, sweep: null, wakeup: null };
  const started = new Date();
  const loadBefore = load();
  log(`Qhorus bench ${started.toISOString()} — ${os.cpus().length} CPUs, load average ${loadBefore}`);
  if (!args.includes('--no-build')) {
    log('building (npx nest build)…');
    execSync('npx nest build', { cwd: dist.ROOT, stdio: 'inherit' });
  }
  const { CONFIG_DEFAULTS } = dist.require.configDefaults();
  const poolSize = CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE;
  const stamp = runStamp();
  const queuePrefix = `qbench-${stamp}`;
  const cleanups = [];
  try {
    if (HTTP_FIGURES.some(wants)) {
      const serviceDb = await createDatabase(stamp, 'service');
      cleanups.push(() => serviceDb.drop());
      const baselineDb = await createDatabase(stamp, 'baseline');
      cleanups.push(() => baselineDb.drop());
      const preparedDb = await createDatabase(stamp, 'prepared');
      cleanups.push(() => preparedDb.drop());
      const floorDb = await createDatabase(stamp, 'floor');
      cleanups.push(() => floorDb.drop());
      cleanups.push(() => deleteRedisPrefix(queuePrefix));
      for (const db of [baselineDb, preparedDb, floorDb]) {
        await runMigrations(db.url);
        await createBaselineChannels(db.url, POST_CHANNELS);
      }

      if (args.includes('--profile')) mkdirSync(PROFILE_DIR, { recursive: true });
      const profileArgs = args.includes('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
      const service = await startService({ databaseUrl: serviceDb.url, queuePrefix, poolSize, nodeArgs: profileArgs });
      cleanups.unshift(() => service.stop());
      const baseline = await startBaseline({ databaseUrl: baselineDb.url, poolSize, nodeArgs: profileArgs });
      cleanups.unshift(() => baseline.stop());
      const prepared = await startBaseline({ databaseUrl: preparedDb.url, poolSize, nodeArgs: profileArgs, prepared: true });
      cleanups.unshift(() => prepared.stop());
      const floor = await startNestFloor({ databaseUrl: floorDb.url, poolSize, nodeArgs: profileArgs });
      cleanups.unshift(() => floor.stop());
      for (const [server, db] of [[service, serviceDb], [baseline, baselineDb], [prepared, preparedDb], [floor, floorDb]]) registerServerDatabase(server.pid, db.name);
      log(`service pid ${service.pid} at ${service.url}, baseline pid ${baseline.pid} at ${baseline.url}, prepared baseline pid ${prepared.pid} at ${prepared.url}, Nest floor pid ${floor.pid} at ${floor.url}, pool size ${poolSize}`);

      const admin = new JsonClient(service.url, cfg.ADMIN_TOKEN);
      // One agent per connection: a fleet, each agent under the default per-agent rate limit.
      const tokens = [];
      for (let i = 0; i < cfg.CONNECTIONS; i++) tokens.push((await admin.expectOk('POST', '/api/v1/agents', { name: `${cfg.AGENT}-${i}` })).token);
      const token = tokens[0];
      const agent = new JsonClient(service.url, token);
      for (const name of POST_CHANNELS) await agent.expectOk('POST', '/api/v1/channels', { name });
      for (const name of NO_SUMMARY_CHANNELS) await agent.expectOk('POST', '/api/v1/channels', { name, summaryThreshold: cfg.NO_SUMMARY_THRESHOLD });
      // Same headers on the wire for all servers (the baselines ignore the token).
      const headers = tokens.map((t) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' }));
      const authOnly = headers.map((h) => ({ authorization: h.authorization }));
      const postPaths = (channels) => channels.map((n) => `/api/v1/channels/${n}/messages`);
      const baselinePost = { url: baseline.url, pid: baseline.pid, paths: postPaths(POST_CHANNELS), headers };
      const preparedPost = { url: prepared.url, pid: prepared.pid, paths: postPaths(POST_CHANNELS), headers };
      const floorPost = { url: floor.url, pid: floor.pid, paths: postPaths(POST_CHANNELS), headers };

      if (wants('mcp')) report.mcp = await measureToolsList(service.url, token, cfg.ADMIN_TOKEN);
      if (wants('post')) {
        report.figures.push({
          ...(await compare({
            title: `POST message, threshold ${cfg.DEFAULT_THRESHOLD} (summary jobs running)`,
            method: 'POST',
            body: cfg.POST_BODY,
            baseline: baselinePost,
            prepared: preparedPost,
            floor: floorPost,
            service: { url: service.url, pid: service.pid, paths: postPaths(POST_CHANNELS), headers, dbUrl: serviceDb.url },
          })),
          target: cfg.TARGETS.POST_RATIO,
        });
        report.figures.push({
          ...(await compare({
            title: 'POST message, no summary due (post path alone)',
            method: 'POST',
            body: cfg.POST_BODY,
            baseline: baselinePost,
            prepared: preparedPost,
            floor: floorPost,
            service: { url: service.url, pid: service.pid, paths: postPaths(NO_SUMMARY_CHANNELS), headers },
          })),
          target: cfg.TARGETS.POST_RATIO,
        });
      }
      const getPaths = POST_CHANNELS.map((n) => `/api/v1/channels/${n}/summary`);
      let textBytes = null;
      if (wants('get') || wants('conditional')) {
        if (!wants('post')) await seedSummaries(agent, serviceDb.url, POST_CHANNELS);
        const slots = await copySlotsToBaseline(serviceDb.url, baselineDb.url, POST_CHANNELS);
        await copySlotsToBaseline(serviceDb.url, preparedDb.url, POST_CHANNELS);
        await copySlotsToBaseline(serviceDb.url, floorDb.url, POST_CHANNELS);
        textBytes = Math.round(slots.reduce((n, s) => n + Buffer.byteLength(s.text), 0) / slots.length);
      }
      if (wants('get')) {
        report.figures.push({
          ...(await compare({
            title: `GET summary (${textBytes} B of summary text)`,
            method: 'GET',
            baseline: { url: baseline.url, pid: baseline.pid, paths: getPaths, headers: authOnly },
            prepared: { url: prepared.url, pid: prepared.pid, paths: getPaths, headers: authOnly },
            floor: { url: floor.url, pid: floor.pid, paths: getPaths, headers: authOnly },
            service: { url: service.url, pid: service.pid, paths: getPaths, headers: authOnly },
          })),
          target: cfg.TARGETS.GET_SUMMARY_RATIO,
        });
      }
      if (wants('conditional')) {
        // Connection i reads channel i with the tag that channel's summary has now: every answer a
        // 304 (the run is invalid otherwise), against the baselines' full reads of the same rows.
        const tags = [];
        for (let i = 0; i < getPaths.length; i++) {
          const res = await fetch(service.url + getPaths[i], { headers: authOnly[i % authOnly.length] });
          tags.push(res.headers.get('etag'));
        }
        const conditionalHeaders = authOnly.map((h, i) => ({ ...h, 'if-none-match': tags[i % tags.length] }));
        report.figures.push({
          ...(await compare({
            title: `GET summary with a current If-None-Match: 304, no body (baselines: the full ${textBytes} B read)`,
            method: 'GET',
            baseline: { url: baseline.url, pid: baseline.pid, paths: getPaths, headers: authOnly },
            prepared: { url: prepared.url, pid: prepared.pid, paths: getPaths, headers: authOnly },
            floor: { url: floor.url, pid: floor.pid, paths: getPaths, headers: authOnly },
            service: { url: service.url, pid: service.pid, paths: getPaths, headers: conditionalHeaders, expectStatus: '3xx' },
          })),
          target: cfg.TARGETS.CONDITIONAL_READ_RATIO,
        });
      }
      if (wants('batch')) {
        // Messages/s in batches of BATCH_SIZE, against the bare multi-row insert (same channels,
        // threshold 20: every batch crosses it, so a summary job runs per batch on the service).
        const batchBody = JSON.stringify({ messages: Array.from({ length: cfg.BATCH_SIZE }, () => JSON.parse(cfg.POST_BODY)) });
        const batchPaths = POST_CHANNELS.map((n) => `/api/v1/channels/${n}/messages/batch`);
        const figure = await compare({
          title: `POST batch of ${cfg.BATCH_SIZE} messages`,
          method: 'POST',
          body: batchBody,
          baseline: { ...baselinePost, paths: batchPaths },
          prepared: { ...preparedPost, paths: batchPaths },
          floor: { ...floorPost, paths: batchPaths },
          service: { url: service.url, pid: service.pid, paths: batchPaths, headers, dbUrl: serviceDb.url },
        });
        const singlePost = report.figures.find((f) => f.title.startsWith('POST message, threshold'));
        report.batch = { size: cfg.BATCH_SIZE, figure, singlePostRps: singlePost ? singlePost.service.rps : NaN };
      }
      if (wants('tracing')) {
        // The same service with OTEL_EXPORTER_OTLP_ENDPOINT set, exporting to a collector that
        // drops what it gets, on its own database and queue prefix, fed the same fleet's posts.
        const sink = await startSinkCollector(cfg.HOST);
        const tracedDb = await createDatabase(stamp, 'traced');
        const tracedPrefix = `${queuePrefix}-traced`;
        cleanups.push(() => tracedDb.drop(), () => deleteRedisPrefix(tracedPrefix), () => sink.close());
        const traced = await startService({ databaseUrl: tracedDb.url, queuePrefix: tracedPrefix, poolSize, label: 'traced service', nodeArgs: profileArgs, env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint } });
        cleanups.unshift(() => traced.stop());
        registerServerDatabase(traced.pid, tracedDb.name);
        const tracedHeaders = await fleet(traced.url, POST_CHANNELS);
        report.tracing = {
          ...(await alternate(
            `POST message, threshold ${cfg.DEFAULT_THRESHOLD}, tracing off / on`,
            { method: 'POST', body: cfg.POST_BODY, paths: postPaths(POST_CHANNELS) },
            { label: 'off', url: service.url, pid: service.pid, headers, dbUrl: serviceDb.url },
            { label: 'on', url: traced.url, pid: traced.pid, headers: tracedHeaders, dbUrl: tracedDb.url },
          )),
          exports: sink.exports(),
        };
        await traced.stop();
      }
      if (wants('embedded')) {
        // The embedded default (PGlite, jobs in process) as a new user runs it, against this one.
        const dataDir = mkdtempSync(join(os.tmpdir(), 'qhorus-bench-embedded-'));
        cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
        const embedded = await startService({ databaseUrl: '', queuePrefix, poolSize, label: 'embedded service', env: { REDIS_URL: '', QHORUS_DATA_DIR: dataDir } });
        cleanups.unshift(() => embedded.stop());
        const embeddedHeaders = await fleet(embedded.url, POST_CHANNELS);
        const embeddedAuth = embeddedHeaders.map((h) => ({ authorization: h.authorization }));
        const post = await alternate(
          'POST message, threshold 20: Postgres + Redis / embedded',
          { method: 'POST', body: cfg.POST_BODY, paths: postPaths(POST_CHANNELS) },
          { label: 'postgres', url: service.url, pid: service.pid, headers, dbUrl: serviceDb.url },
          { label: 'embedded', url: embedded.url, pid: embedded.pid, headers: embeddedHeaders },
        );
        const get = await alternate(
          'GET summary: Postgres + Redis / embedded',
          { method: 'GET', paths: getPaths },
          { label: 'postgres', url: service.url, pid: service.pid, headers: authOnly },
          { label: 'embedded', url: embedded.url, pid: embedded.pid, headers: embeddedAuth },
        );
        report.embedded = { post, get };
        await embedded.stop();
      }
      if (wants('freshness')) {
        log(`  freshness: ${cfg.FRESHNESS.RATE} msg/s over ${cfg.FRESHNESS.CHANNELS} channels for ${cfg.FRESHNESS.DURATION_S} s`);
        report.freshness = {
          ...(await measureFreshness({ baseUrl: service.url, tokens, threshold: cfg.DEFAULT_THRESHOLD })),
          channels: cfg.FRESHNESS.CHANNELS,
        };
      }
      agent.close();
      admin.close();
      await baseline.stop();
      await prepared.stop();
      await floor.stop();
      await service.stop();
      if (args.includes('--profile')) {
        writeFileSync(join(PROFILE_DIR, 'windows.json'), JSON.stringify(measuredWindows, null, 2));
        log(`CPU profiles (service pid ${service.pid}, baseline pid ${baseline.pid}, prepared baseline pid ${prepared.pid}, Nest floor pid ${floor.pid}) in ${PROFILE_DIR}; measured runs in windows.json: node bench/tools/cpu-profile-top.js <profile> --window=<figure>`);
      }
    }
    if (wants('heuristic')) {
      log('  heuristic summariser: in process, pinned to one CPU');
      report.heuristic = attempt('heuristic', failures, () => runJsonScript('scenarios/heuristic.js', {}, cfg.HEURISTIC.CPU));
    }
    if (wants('linearity')) {
      log(`  linearity: ${cfg.LINEARITY.MESSAGES} messages into one channel at threshold ${cfg.LINEARITY.THRESHOLD}`);
      report.linearity = attempt('linearity', failures, () => runJsonScript('scenarios/linearity.js', { BENCH_STAMP: stamp }));
    }
    if (wants('capacity')) {
      log('  capacity: summary jobs per second, RSS, embedded start-up');
      report.capacity = attempt('capacity', failures, () => runJsonScript('scenarios/capacity.js', { BENCH_STAMP: stamp }));
    }
    if (wants('sweep')) {
      log(`  sweep: one round's query with ${cfg.SWEEP.CHANNELS} idle channels`);
      report.sweep = attempt('sweep', failures, () => runJsonScript('scenarios/sweep.js'));
    }
    if (wants('wakeup')) {
      log(`  wake-up: long polls under ${cfg.WAKEUP.LOAD_RATE} msg/s, then ${cfg.WAKEUP.WAITERS} waiters on one instance`);
      report.wakeup = attempt('wakeup', failures, () => runJsonScript('scenarios/wakeup.js', { BENCH_STAMP: stamp }));
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((e) => log(`cleanup: ${e.message}`));
  }

  const finished = new Date();
  const header = [
    `Qhorus bench — ${started.toISOString()} (${Math.round((finished - started) / 1000)} s), node ${process.version}, ${os.cpus().length} × ${os.cpus()[0].model}`,
    `load average before ${loadBefore}, after ${load()}; ${cfg.CONNECTIONS} connections, ${cfg.ROUNDS} × ${cfg.DURATION_S} s per server per figure (rotating order), medians`,
    '',
  ].join('\n');
  const out = `${header}${renderReport(report)}\n`;
  process.stdout.write(`\n${out}`);
  const file = join(os.tmpdir(), `qhorus-bench-${stamp}.json`);
  writeFileSync(file, JSON.stringify({ started, finished, loadBefore, loadAfter: load(), config: cfg, ...report }, null, 2));
  log(`raw results: ${file}`);
  if (failures.length > 0) {
    log(`failed figures: ${failures.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
