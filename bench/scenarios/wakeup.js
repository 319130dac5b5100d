'use strict';
// Wake-up of long polls (GET messages?waitMs=). Two compiled service processes on one Postgres
// and Redis: A (role all) takes every post, B (role api) serves waits too.
//  1. Latency from sending a post to the answer of a wait that was already waiting for it, with
//     the wait on A (in process) and on B (across instances, through the Redis fan-out), under a
//     paced background load of LOAD_RATE msg/s; side by side, in the same window, a bare Redis
//     pub/sub round trip (publish → the subscriber's message) on the same Redis.
//  2. WAITERS concurrent waits held on B: B's memory per waiter, database connections busy while
//     they wait (pg_stat_activity), and B's closed-loop POST throughput without / with them.
// Run alone: `node bench/scenarios/wakeup.js` (after `npx nest build`). Prints JSON last.
const http = require('node:http');
const { readFileSync } = require('node:fs');
const IORedis = require('ioredis');
const { ADMIN_TOKEN, POST_BODY, REDIS_URL, WAKEUP } = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { createDatabase, withClient } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { startService } = require('../lib/servers');
const { runStamp } = require('../lib/stamp');
const { percentile } = require('../lib/stats');

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TICK_MS = 2;
const POLL_MS = 100;
const WAIT_METRIC = 'qhorus_long_poll_waits';
const HEAP_METRIC = 'nodejs_heap_size_used_bytes';
const log = (msg) => process.stderr.write(`  wakeup: ${msg}\n`);

/** Resident memory of a process (bytes), from /proc. */
function rssBytes(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) * 1024;
}

/** One gauge of the service's /metrics. */
async function metric(client, name) {
  const res = await client.get('/metrics');
  const line = String(res.body).split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ').pop()) : NaN;
}

/** Posts at `rate` msg/s round-robin over `channels` and `clients` until `stop()`; counts failures. */
function pacedLoad(clients, channels, rate) {
  const body = JSON.parse(POST_BODY);
  const start = nowMs();
  let issued = 0;
  let failures = 0;
  let stopped = false;
  const inFlight = new Set();
  const tick = () => {
    if (stopped) return;
    const due = Math.floor(((nowMs() - start) / 1000) * rate);
    while (issued < due) {
      const client = clients[issued % clients.length];
      const p = client.post(`/api/v1/channels/${channels[issued++ % channels.length]}/messages`, body).then(
        (r) => r.status === 201 || failures++,
        () => failures++,
      );
      inFlight.add(p);
      p.finally(() => inFlight.delete(p));
    }
    setTimeout(tick, TICK_MS);
  };
  tick();
  return async () => {
    stopped = true;
    const rate = issued / ((nowMs() - start) / 1000);
    await Promise.all(inFlight);
    return { rate, failures };
  };
}

/** Posts as fast as one loop per client can for `seconds`; returns posts/s. */
async function closedLoopPosts(clients, channels, seconds) {
  const body = JSON.parse(POST_BODY);
  const end = nowMs() + seconds * 1000;
  let done = 0;
  await Promise.all(
    clients.map(async (client, i) => {
      while (nowMs() < end) {
        await client.expectOk('POST', `/api/v1/channels/${channels[i % channels.length]}/messages`, body);
        done++;
      }
    }),
  );
  return done / seconds;
}

/** Post → the waiting client's answer (ms), the wait on `waitOn`, the post on `postTo`. */
async function wakeSample(waitOn, postTo, channel, afterSeq) {
  const waiting = waitOn.get(`/api/v1/channels/${channel}/messages?afterSeq=${afterSeq}&waitMs=${WAKEUP.WAIT_MS}`).then((r) => ({ r, at: nowMs() }));
  await sleep(WAKEUP.ARM_MS);
  const sentAt = nowMs();
  const posted = await postTo.expectOk('POST', `/api/v1/channels/${channel}/messages`, { type: 'STATUS', content: 'wake up' });
  const postMs = nowMs() - sentAt;
  const { r, at } = await waiting;
  if (r.status !== 200) throw new Error(`wait on ${waitOn.base.port} after ${afterSeq} answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  // An empty page: the post was not committed within WAIT_MS (an overloaded machine), not a missed wake-up.
  return { wakeMs: r.body[0]?.seq === posted.seq ? at - sentAt : null, postMs, seq: posted.seq };
}

/** A bare Redis pub/sub round trip: publish → the message at a subscriber, on another connection. */
async function redisRoundTrips(count, gapMs, isDone) {
  const sub = new IORedis(REDIS_URL);
  const pub = new IORedis(REDIS_URL);
  const topic = `qbench-wakeup-ping-${process.pid}`;
  const samples = [];
  let pending = null;
  sub.on('message', () => pending?.());
  await sub.subscribe(topic);
  try {
    while (samples.length < count && !isDone()) {
      const sentAt = nowMs();
      await new Promise((resolve) => {
        pending = resolve;
        void pub.publish(topic, String(sentAt));
      });
      samples.push(nowMs() - sentAt);
      await sleep(gapMs);
    }
  } finally {
    sub.disconnect();
    pub.disconnect();
  }
  return samples;
}

async function measureWakeup(stamp = runStamp()) {
  const { CONFIG_DEFAULTS } = dist.require.configDefaults();
  const poolSize = CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE;
  const db = await createDatabase(stamp, 'wakeup');
  const queuePrefix = `qbench-${stamp}-wakeup`;
  // Every knob at its default: the waiters are spread over as many agents as the default per-agent
  // cap needs, the load over LOAD_AGENTS (each under the default rate limit).
  const waitsPerAgent = CONFIG_DEFAULTS.QHORUS_LONG_POLL_MAX_PER_AGENT;
  const env = {};
  const servers = [];
  try {
    const a = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env, label: 'service A' });
    servers.push(a);
    const b = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env: { ...env, QHORUS_ROLE: 'api' }, label: 'service B' });
    servers.push(b);
    const adminA = new JsonClient(a.url, ADMIN_TOKEN);
    const register = async (name) => (await adminA.expectOk('POST', '/api/v1/agents', { name })).token;
    const posterToken = await register('poster');
    const waiterToken = await register('waiter');
    const loaders = [];
    for (let i = 0; i < WAKEUP.LOAD_AGENTS; i++) loaders.push(new JsonClient(a.url, await register(`loader-${i}`), 16));
    const posterA = new JsonClient(a.url, posterToken, 64);
    const probeA = new JsonClient(a.url, posterToken, 2); // its own sockets: never queued behind the load
    const waiterA = new JsonClient(a.url, waiterToken, 4);
    const waiterB = new JsonClient(b.url, waiterToken, 4);
    const loadChannels = Array.from({ length: WAKEUP.LOAD_CHANNELS }, (_, i) => `load-${i}`);
    for (const name of ['wake', 'idle', ...loadChannels]) await posterA.expectOk('POST', '/api/v1/channels', { name });

    // 1. Latency under load, both placements alternating, Redis round trips in the same window.
    log(`latency: ${WAKEUP.SAMPLES} samples per placement under ${WAKEUP.LOAD_RATE} msg/s`);
    const stopLoad = pacedLoad(loaders, loadChannels, WAKEUP.LOAD_RATE);
    let sampling = true;
    const redisSamples = redisRoundTrips(WAKEUP.SAMPLES, WAKEUP.ARM_MS, () => !sampling);
    const same = [];
    const cross = [];
    // The wait's answer relative to the post's own answer (negative: the waiter heard first).
    const sameAfterPost = [];
    const crossAfterPost = [];
    const posts = [];
    let timeouts = 0;
    let lastSeq = 0;
    for (let i = 0; i < WAKEUP.SAMPLES * 2; i++) {
      const onB = i % 2 === 1;
      const s = await wakeSample(onB ? waiterB : waiterA, probeA, 'wake', lastSeq);
      lastSeq = s.seq;
      if (s.wakeMs === null) timeouts++;
      else {
        (onB ? cross : same).push(s.wakeMs);
        (onB ? crossAfterPost : sameAfterPost).push(s.wakeMs - s.postMs);
      }
      posts.push(s.postMs);
    }
    sampling = false;
    const redis = await redisSamples;
    const load = await stopLoad();
    await sleep(WAKEUP.SETTLE_MS);

    // 2. Many waiters on B.
    log(`${WAKEUP.WAITERS} waiters on one instance`);
    // One agent per connection, each under the default rate limit.
    const postB = [];
    for (let i = 0; i < WAKEUP.THROUGHPUT_CONNECTIONS; i++) postB.push(new JsonClient(b.url, await register(`closed-loop-${i}`), 1));
    const adminB = new JsonClient(b.url, ADMIN_TOKEN);
    const without1 = await closedLoopPosts(postB, loadChannels, WAKEUP.THROUGHPUT_S);
    await sleep(WAKEUP.SETTLE_MS);
    const rssBefore = rssBytes(b.pid);
    const heapBefore = await metric(adminB, HEAP_METRIC);
    const tokens = [];
    for (let i = 0; i < Math.ceil(WAKEUP.WAITERS / waitsPerAgent); i++) tokens.push(await register(`waiter-${i}`));
    const manyAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    const waits = Array.from({ length: WAKEUP.WAITERS }, (_, i) =>
      new Promise((resolve) => {
        const req = http.get(
          `${b.url}/api/v1/channels/idle/messages?afterSeq=0&waitMs=${WAKEUP.WAIT_MS}`,
          { agent: manyAgent, headers: { authorization: `Bearer ${tokens[i % tokens.length]}` } },
          (res) => {
            let text = '';
            res.on('data', (c) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode, at: nowMs(), count: JSON.parse(text).length }));
          },
        );
        req.on('error', (err) => resolve({ status: 0, at: nowMs(), error: err.message }));
      }),
    );
    const deadline = nowMs() + WAKEUP.WAIT_MS / 2;
    while ((await metric(adminB, WAIT_METRIC)) < WAKEUP.WAITERS && nowMs() < deadline) await sleep(POLL_MS);
    const held = await metric(adminB, WAIT_METRIC);
    await sleep(WAKEUP.SETTLE_MS);
    const rssWith = rssBytes(b.pid);
    const heapWith = await metric(adminB, HEAP_METRIC);
    const busyConnections = await withClient(db.url, async (c) => {
      const q = `SELECT count(*) FILTER (WHERE state <> 'idle')::int AS busy, count(*)::int AS open
                 FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`;
      return (await c.query(q)).rows[0];
    });
    const withWaiters = await closedLoopPosts(postB, loadChannels, WAKEUP.THROUGHPUT_S);
    // Release them all with one post on the other instance.
    const releasedAt = nowMs();
    await posterA.expectOk('POST', '/api/v1/channels/idle/messages', { content: 'everyone up' });
    const answers = await Promise.all(waits);
    const woken = answers.filter((r) => r.status === 200 && r.count === 1);
    await sleep(WAKEUP.SETTLE_MS);
    const without2 = await closedLoopPosts(postB, loadChannels, WAKEUP.THROUGHPUT_S);
    const withoutWaiters = (without1 + without2) / 2;

    for (const c of [adminA, posterA, probeA, waiterA, waiterB, adminB, ...loaders, ...postB]) c.close();
    const stats = (xs) => ({ p50: percentile(xs, 50), p95: percentile(xs, 95), samples: xs.length });
    return {
      loadRate: load.rate,
      loadFailures: load.failures,
      sameInstance: stats(same),
      crossInstance: stats(cross),
      sameAfterPost: stats(sameAfterPost),
      crossAfterPost: stats(crossAfterPost),
      redisRoundTrip: stats(redis),
      postP50: percentile(posts, 50),
      waitTimeouts: timeouts,
      waiters: WAKEUP.WAITERS,
      waiterAgents: tokens.length,
      waitersHeld: held,
      rssPerWaiterBytes: (rssWith - rssBefore) / WAKEUP.WAITERS,
      heapPerWaiterBytes: (heapWith - heapBefore) / WAKEUP.WAITERS,
      busyDbConnections: busyConnections.busy,
      openDbConnections: busyConnections.open,
      postsPerSWithout: withoutWaiters,
      postsPerSWith: withWaiters,
      throughputChange: withWaiters / withoutWaiters - 1,
      wokenByOnePost: woken.length,
      wakeAllMs: Math.max(...woken.map((r) => r.at)) - releasedAt,
    };
  } finally {
    for (const s of servers.reverse()) await s.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
}

if (require.main === module) {
  measureWakeup(process.env.BENCH_STAMP).then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

module.exports = { measureWakeup };
