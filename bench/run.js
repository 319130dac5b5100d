#!/usr/bin/env node
'use strict';
// `npm run bench`: builds the service, starts it in production mode (Postgres + BullMQ) next to
// a bare Fastify + pg baseline, and measures the figures of docs/benchmarks.md.
//   --only=post,get,freshness,heuristic,linearity   a subset (default: all)
//   --profile                                       both servers under `node --cpu-prof` (see bench/tools/)
//   --no-build                                      reuse dist/
// Durations: BENCH_DURATION_S, BENCH_ROUNDS, BENCH_WARMUP_S (see bench/config.js).
const { execFileSync, execSync } = require('node:child_process');
const { mkdirSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const cfg = require('./config');
const dist = require('./lib/dist');
const { JsonClient } = require('./lib/http');
const { createDatabase, runMigrations, withClient } = require('./lib/postgres');
const { startServer } = require('./lib/processes');
const { deleteRedisPrefix } = require('./lib/redis');
const { renderReport } = require('./lib/report');
const { runStamp } = require('./lib/stamp');
const { compare, drainSummaries, measuredWindows } = require('./scenarios/throughput');
const { measureFreshness } = require('./scenarios/freshness');

const ALL = ['post', 'get', 'freshness', 'heuristic', 'linearity'];
const args = process.argv.slice(2);
const only = (args.find((a) => a.startsWith('--only=')) ?? `--only=${ALL.join(',')}`).slice('--only='.length).split(',');
const wants = (name) => only.includes(name);
const PROFILE_DIR = join(os.tmpdir(), 'qhorus-bench-profiles');

const names = (prefix, n) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);
const POST_CHANNELS = names('post', cfg.CHANNELS);
const NO_SUMMARY_CHANNELS = names('nosum', cfg.CHANNELS);
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const log = (msg) => process.stderr.write(`${msg}\n`);

/** A child node script that prints one JSON line last; optionally pinned to one CPU. */
function runJsonScript(script, env = {}, cpu) {
  const argv = [process.execPath, join(__dirname, script)];
  const [cmd, ...rest] = cpu === undefined ? argv : ['taskset', '-c', String(cpu), ...argv];
  const out = execFileSync(cmd, rest, { env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(out.trim().split('\n').pop());
}

async function createBaselineChannels(url, channels) {
  await withClient(url, async (c) => {
    await c.query(
      `INSERT INTO channels (name, summary_threshold, summariser, created_by) SELECT unnest($1::text[]), $2, 'heuristic', $3`,
      [channels, cfg.DEFAULT_THRESHOLD, cfg.AGENT],
    );
    await c.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels`);
  });
}

/** The baseline reads byte-for-byte the same slots as the service: copy them over. */
async function copySlotsToBaseline(serviceDb, baselineDb, channels) {
  const { rows } = await withClient(serviceDb, (c) =>
    c.query(
      `SELECT c.name, c.last_seq, s.text, s.annotations, s.covers_through_seq, s.version, s.updated_at, s.updated_by
       FROM channels c JOIN channel_summaries s ON s.channel_id = c.id WHERE c.name = ANY($1)`,
      [channels],
    ),
  );
  await withClient(baselineDb, async (c) => {
    for (const r of rows) {
      await c.query(`UPDATE channels SET last_seq = $2 WHERE name = $1`, [r.name, r.last_seq]);
      await c.query(
        `UPDATE channel_summaries SET text = $2, annotations = $3, covers_through_seq = $4, version = $5, updated_at = $6, updated_by = $7
         WHERE channel_id = (SELECT id FROM channels WHERE name = $1)`,
        [r.name, r.text, JSON.stringify(r.annotations), r.covers_through_seq, r.version, r.updated_at, r.updated_by],
      );
    }
  });
  return rows;
}

/** GET summary without a POST figure before it: give every channel a real summary first. */
async function seedSummaries(agent, serviceDb, channels) {
  const body = JSON.parse(cfg.POST_BODY);
  for (const name of channels) {
    for (let i = 0; i < cfg.DEFAULT_THRESHOLD * 5; i++) await agent.expectOk('POST', `/api/v1/channels/${name}/messages`, body);
  }
  await drainSummaries(serviceDb);
}

async function main() {
  const report = { figures: [], freshness: null, heuristic: null, linearity: null };
  const started = new Date();
  const loadBefore = load();
  log(`Qhorus bench ${started.toISOString()} — ${os.cpus().length} CPUs, load average ${loadBefore}`);
  if (!args.includes('--no-build')) {
    log('building (npx nest build)…');
    execSync('npx nest build', { cwd: dist.ROOT, stdio: 'inherit' });
  }
  const { CONFIG_DEFAULTS } = dist.require.appConfig();
  const poolSize = CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE;
  const stamp = runStamp();
  const queuePrefix = `qbench-${stamp}`;
  const cleanups = [];
  try {
    if (wants('post') || wants('get') || wants('freshness')) {
      const serviceDb = await createDatabase(stamp, 'service');
      cleanups.push(() => serviceDb.drop());
      const baselineDb = await createDatabase(stamp, 'baseline');
      cleanups.push(() => baselineDb.drop());
      cleanups.push(() => deleteRedisPrefix(queuePrefix));
      await runMigrations(baselineDb.url);
      await createBaselineChannels(baselineDb.url, POST_CHANNELS);

      if (args.includes('--profile')) mkdirSync(PROFILE_DIR, { recursive: true });
      const profileArgs = args.includes('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [];
      const service = await startServer({
        label: 'service',
        script: dist.SERVICE_ENTRY,
        nodeArgs: profileArgs,
        readyPath: '/health',
        env: {
          NODE_ENV: 'production',
          LOG_LEVEL: 'warn',
          DATABASE_URL: serviceDb.url,
          REDIS_URL: cfg.REDIS_URL,
          QHORUS_QUEUE_PREFIX: queuePrefix,
          QHORUS_ADMIN_TOKEN: cfg.ADMIN_TOKEN,
          QHORUS_DB_POOL_SIZE: String(poolSize),
          QHORUS_RATE_LIMIT_PER_SECOND: cfg.RATE_LIMIT_LIFTED,
          QHORUS_RATE_LIMIT_BURST: cfg.RATE_LIMIT_LIFTED,
        },
      });
      cleanups.unshift(() => service.stop());
      const baseline = await startServer({
        label: 'baseline',
        script: join(__dirname, 'baseline/server.js'),
        nodeArgs: profileArgs,
        readyPath: '/health',
        env: { NODE_ENV: 'production', DATABASE_URL: baselineDb.url, POOL_SIZE: String(poolSize) },
      });
      cleanups.unshift(() => baseline.stop());
      log(`service pid ${service.pid} at ${service.url}, baseline pid ${baseline.pid} at ${baseline.url}, pool size ${poolSize}`);

      const admin = new JsonClient(service.url, cfg.ADMIN_TOKEN);
      const { token } = await admin.expectOk('POST', '/api/v1/agents', { name: cfg.AGENT });
      const agent = new JsonClient(service.url, token);
      for (const name of POST_CHANNELS) await agent.expectOk('POST', '/api/v1/channels', { name });
      for (const name of NO_SUMMARY_CHANNELS) await agent.expectOk('POST', '/api/v1/channels', { name, summaryThreshold: cfg.NO_SUMMARY_THRESHOLD });
      // Same headers on the wire for both servers (the baseline ignores the token).
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const postPaths = (channels) => channels.map((n) => `/api/v1/channels/${n}/messages`);
      const baselinePost = { url: baseline.url, pid: baseline.pid, paths: postPaths(POST_CHANNELS), headers };

      if (wants('post')) {
        report.figures.push({
          ...(await compare({
            title: `POST message, threshold ${cfg.DEFAULT_THRESHOLD} (summary jobs running)`,
            method: 'POST',
            body: cfg.POST_BODY,
            baseline: baselinePost,
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
            service: { url: service.url, pid: service.pid, paths: postPaths(NO_SUMMARY_CHANNELS), headers },
          })),
          target: cfg.TARGETS.POST_RATIO,
        });
      }
      if (wants('get')) {
        if (!wants('post')) await seedSummaries(agent, serviceDb.url, POST_CHANNELS);
        const slots = await copySlotsToBaseline(serviceDb.url, baselineDb.url, POST_CHANNELS);
        const textBytes = Math.round(slots.reduce((n, s) => n + Buffer.byteLength(s.text), 0) / slots.length);
        const getPaths = POST_CHANNELS.map((n) => `/api/v1/channels/${n}/summary`);
        report.figures.push({
          ...(await compare({
            title: `GET summary (${textBytes} B of summary text)`,
            method: 'GET',
            baseline: { url: baseline.url, pid: baseline.pid, paths: getPaths, headers: { authorization: headers.authorization } },
            service: { url: service.url, pid: service.pid, paths: getPaths, headers: { authorization: headers.authorization } },
          })),
          target: cfg.TARGETS.GET_SUMMARY_RATIO,
        });
      }
      if (wants('freshness')) {
        log(`  freshness: ${cfg.FRESHNESS.RATE} msg/s over ${cfg.FRESHNESS.CHANNELS} channels for ${cfg.FRESHNESS.DURATION_S} s`);
        report.freshness = {
          ...(await measureFreshness({ baseUrl: service.url, token, dbUrl: serviceDb.url, threshold: cfg.DEFAULT_THRESHOLD })),
          channels: cfg.FRESHNESS.CHANNELS,
        };
      }
      agent.close();
      admin.close();
      await baseline.stop();
      await service.stop();
      if (args.includes('--profile')) {
        writeFileSync(join(PROFILE_DIR, 'windows.json'), JSON.stringify(measuredWindows, null, 2));
        log(`CPU profiles (service pid ${service.pid}, baseline pid ${baseline.pid}) in ${PROFILE_DIR}; measured runs in windows.json: node bench/tools/cpu-profile-top.js <profile> --window=<figure>`);
      }
    }
    if (wants('heuristic')) {
      log('  heuristic summariser: in process, pinned to one CPU');
      report.heuristic = runJsonScript('scenarios/heuristic.js', {}, cfg.HEURISTIC.CPU);
    }
    if (wants('linearity')) {
      log(`  linearity: ${cfg.LINEARITY.MESSAGES} messages into one channel at threshold ${cfg.LINEARITY.THRESHOLD}`);
      report.linearity = runJsonScript('scenarios/linearity.js', { BENCH_STAMP: stamp });
    }
  } finally {
    for (const cleanup of cleanups) await cleanup().catch((e) => log(`cleanup: ${e.message}`));
  }

  const finished = new Date();
  const header = [
    `Qhorus bench — ${started.toISOString()} (${Math.round((finished - started) / 1000)} s), node ${process.version}, ${os.cpus().length} × ${os.cpus()[0].model}`,
    `load average before ${loadBefore}, after ${load()}; ${cfg.CONNECTIONS} connections, ${cfg.ROUNDS} × ${cfg.DURATION_S} s per server per figure (alternating), medians`,
    '',
  ].join('\n');
  const out = `${header}${renderReport(report)}\n`;
  process.stdout.write(`\n${out}`);
  const file = join(os.tmpdir(), `qhorus-bench-${stamp}.json`);
  writeFileSync(file, JSON.stringify({ started, finished, loadBefore, loadAfter: load(), config: cfg, ...report }, null, 2));
  log(`raw results: ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
