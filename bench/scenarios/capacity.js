'use strict';
// Capacity figures of the service at its defaults, each from the compiled service as a child
// process (what `npm start` runs):
//   jobs       summary jobs per second one worker process sustains (default concurrency): CHANNELS
//              channels each get a backlog of THRESHOLD messages, written directly, then one post
//              each crosses the threshold through the real trigger; timed until every one is covered
//   rss        the service's resident memory: idle, under a post load, and with 100,000 channels
//   startup    the embedded default (no DATABASE_URL, no REDIS_URL) from a fresh data dir, and again
//              on the data it left (time from spawn to /health answering 200)
//   node bench/scenarios/capacity.js   (after `npx nest build`); prints one JSON line last
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const cfg = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { runLoad } = require('../lib/load');
const { createDatabase, withClient } = require('../lib/postgres');
const { startServer } = require('../lib/processes');
const { deleteRedisPrefix } = require('../lib/redis');
const { startService } = require('../lib/servers');
const { runStamp } = require('../lib/stamp');

const { CAPACITY } = cfg;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stderr.write(`  capacity: ${msg}\n`);

/** Resident set size of a process, in MiB (Linux /proc). */
function rssMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Samples the RSS every `everyMs` while `work` runs; resolves with work's result and the peak. */
async function peakRssDuring(pid, work, everyMs = 200) {
  let peak = rssMiB(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), everyMs);
  try {
    const result = await work();
    return { result, peak };
  } finally {
    clearInterval(timer);
  }
}

/** CHANNELS channels, each with THRESHOLD − 1 messages already written and an empty slot. */
async function seedBacklogs(dbUrl, channels, perChannel, sender) {
  await withClient(dbUrl, async (c) => {
    await c.query(
      `INSERT INTO channels (name, summary_threshold, summariser, created_by, last_seq)
       SELECT unnest($1::text[]), $2, 'heuristic', $3, $4`,
      [channels, perChannel + 1, sender, perChannel],
    );
    await c.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels WHERE name = ANY($1)`, [channels]);
    await c.query(
      `INSERT INTO messages (channel_id, seq, type, sender, content, topic)
       SELECT ch.id, s, CASE WHEN s % 5 = 0 THEN 'QUERY' ELSE 'STATUS' END, $2, 'step ' || s || ' of the build: 312 tests passed, artefact uploaded', 'build'
       FROM channels ch, generate_series(1, $3::int) AS s WHERE ch.name = ANY($1)`,
      [channels, sender, perChannel],
    );
  });
}

async function coveredCount(dbUrl, channels) {
  return withClient(dbUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS n FROM channels ch JOIN channel_summaries s ON s.channel_id = ch.id
       WHERE ch.name = ANY($1) AND s.covers_through_seq >= ch.last_seq`,
      [channels],
    );
    return rows[0].n;
  });
}

/** `agents`: the triggering posts are spread over them, each under the default per-agent rate limit. */
async function measureJobs(service, dbUrl, agents, sender) {
  const channels = Array.from({ length: CAPACITY.CHANNELS }, (_, i) => `cap-${String(i).padStart(4, '0')}`);
  await seedBacklogs(dbUrl, channels, CAPACITY.THRESHOLD - 1, sender);
  const body = JSON.parse(cfg.POST_BODY);
  const started = Date.now();
  // Each post makes its channel's backlog reach the threshold: one job per channel, via the trigger.
  for (let i = 0; i < channels.length; i += CAPACITY.POST_CONCURRENCY) {
    await Promise.all(
      channels.slice(i, i + CAPACITY.POST_CONCURRENCY).map((name, j) => agents[(i + j) % agents.length].expectOk('POST', `/api/v1/channels/${name}/messages`, body)),
    );
  }
  const posted = Date.now();
  let covered = 0;
  while (covered < channels.length && Date.now() - started < CAPACITY.TIMEOUT_MS) {
    await sleep(CAPACITY.POLL_MS);
    covered = await coveredCount(dbUrl, channels);
  }
  const seconds = (Date.now() - started) / 1000;
  return { channels: channels.length, covered, seconds, postSeconds: (posted - started) / 1000, jobsPerS: covered / seconds };
}

async function measureRss(service, dbUrl, headers) {
  const idle = rssMiB(service.pid);
  const paths = Array.from({ length: cfg.CONNECTIONS }, (_, i) => `/api/v1/channels/cap-${String(i).padStart(4, '0')}/messages`);
  const { peak: underLoad } = await peakRssDuring(service.pid, () =>
    runLoad({ url: service.url, method: 'POST', paths, headers, body: cfg.POST_BODY, durationS: CAPACITY.LOAD_S, pid: service.pid }),
  );
  await withClient(dbUrl, async (c) => {
    await c.query(
      `INSERT INTO channels (name, summary_threshold, summariser, created_by)
       SELECT 'idle-' || g, 20, 'heuristic', 'bench' FROM generate_series(1, $1::int) g`,
      [CAPACITY.IDLE_CHANNELS],
    );
    await c.query(`INSERT INTO channel_summaries (channel_id) SELECT id FROM channels WHERE name LIKE 'idle-%'`);
  });
  // Several sweep rounds over the 100,000 channels, then a post load again.
  const { peak: withChannels } = await peakRssDuring(service.pid, async () => {
    await sleep(CAPACITY.IDLE_WATCH_MS);
    return runLoad({ url: service.url, method: 'POST', paths, headers, body: cfg.POST_BODY, durationS: CAPACITY.LOAD_S, pid: service.pid });
  });
  return { idleMiB: idle, underLoadMiB: underLoad, with100kChannelsMiB: withChannels, idleChannels: CAPACITY.IDLE_CHANNELS };
}

async function timeToReady(dataDir) {
  const started = process.hrtime.bigint();
  const server = await startServer({
    label: 'embedded',
    script: dist.SERVICE_ENTRY,
    readyPath: '/health',
    env: { NODE_ENV: 'production', DATABASE_URL: '', REDIS_URL: '', QHORUS_DATA_DIR: dataDir, QHORUS_ADMIN_TOKEN: '' },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const rss = rssMiB(server.pid);
  await server.stop();
  return { ms, rssMiB: rss };
}

async function measureStartup() {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'qhorus-bench-embedded-'));
  try {
    const fresh = await timeToReady(dataDir);
    const again = await timeToReady(dataDir);
    return { freshMs: fresh.ms, againMs: again.ms, rssMiB: again.rssMiB };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureCapacity(stamp = runStamp()) {
  const db = await createDatabase(stamp, 'capacity');
  const queuePrefix = `qbench-${stamp}-capacity`;
  const { CONFIG_DEFAULTS } = dist.require.configDefaults();
  let service;
  try {
    service = await startService({ databaseUrl: db.url, queuePrefix, poolSize: CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE });
    const admin = new JsonClient(service.url, cfg.ADMIN_TOKEN);
    const tokens = [];
    for (let i = 0; i < cfg.CONNECTIONS; i++) tokens.push((await admin.expectOk('POST', '/api/v1/agents', { name: `cap-agent-${i}` })).token);
    const agents = tokens.map((t) => new JsonClient(service.url, t, Math.max(1, Math.ceil(CAPACITY.POST_CONCURRENCY / tokens.length))));
    log(`${CAPACITY.CHANNELS} channels with a backlog of ${CAPACITY.THRESHOLD}, one worker at default concurrency`);
    const jobs = await measureJobs(service, db.url, agents, 'cap-agent-0');
    log(`${jobs.covered} jobs in ${jobs.seconds.toFixed(1)} s; RSS idle, under load, with ${CAPACITY.IDLE_CHANNELS} channels`);
    const headers = tokens.map((t) => ({ authorization: `Bearer ${t}`, 'content-type': 'application/json' }));
    const rss = await measureRss(service, db.url, headers);
    for (const agent of agents) agent.close();
    admin.close();
    await service.stop();
    service = undefined;
    log('embedded default start-up, fresh data dir and again');
    const startup = await measureStartup();
    return { jobs, rss, startup };
  } finally {
    if (service) await service.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
}

if (require.main === module) {
  measureCapacity(process.env.BENCH_STAMP).then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

module.exports = { measureCapacity };
