#!/usr/bin/env node
'use strict';
// Webhooks (DESIGN §11, issue 30), on the compiled service with Postgres + BullMQ:
//  1. POST throughput (closed loop) with no hooks vs HOOKS hooks registered (none matching the
//     posts: the cost of the outbox row in the post statement and of the workers fanning it out),
//     alternating rounds. Target: ≤ 10 % lower with the hooks.
//  2. Latency post → receiver, p50/p95, at RATE msg/s each addressed (`target`) to one of AGENTS
//     agents, round-robin; each agent has a `message.addressed` hook on a local HTTP receiver
//     answering 200 (so about RATE deliveries a second over AGENTS hooks). Side by side, under the
//     same load: each agent follows its messages with a long poll (GET …/messages?afterSeq=&waitMs=,
//     re-armed at once), post → long-poll answer measured the same way. Three windows of LATENCY_S:
//     webhooks alone, long polls alone (the hooks disabled), both at once. Each agent's messages go
//     to its own channel, so its long poll reads only its share.
//  3. Saturation (secondary): RATE msg/s for BROADCAST_S seconds into one channel with
//     BROADCAST_HOOKS `message.posted` hooks on it (RATE × BROADCAST_HOOKS deliveries a second
//     asked for, far above one worker's drain): latency and the delivery rate reached.
//  4. Outbox drain per worker: DRAIN_POSTS posts stored by an `api` process with no worker (one
//     matching hook), then one `worker` process started: events fanned out per second (outbox
//     empty) and deliveries per second (all received), the TCP connections it opened, and per
//     delivery the CPU time of the worker and of the database's Postgres backends (/proc) and the
//     transactions committed (pg_stat_database): figures a shared machine moves less than rates.
// Run after `npx nest build`: `node bench/webhooks.js [--phases=throughput,latency,drain]`. Sizes: BENCH_WEBHOOK_* below (the
// defaults are the full run; a smoke run: BENCH_WEBHOOK_SMOKE=1). Prints JSON last; the load
// average is taken at the start and end of each phase (the machine may be shared). Phases 1 and
// 2–3 each run on a service and database of their own; 4 on an api and a worker process.
const http = require('node:http');
const { readFileSync } = require('node:fs');
const os = require('node:os');
const { ADMIN_TOKEN, POST_BODY } = require('./config');
const dist = require('./lib/dist');
const { JsonClient } = require('./lib/http');
const { createDatabase, withClient } = require('./lib/postgres');
const { deleteRedisPrefix } = require('./lib/redis');
const { startService } = require('./lib/servers');
const { runStamp } = require('./lib/stamp');
const { percentile } = require('./lib/stats');

const int = (name, full, smoke) => (process.env[name] ? Number(process.env[name]) : process.env.BENCH_WEBHOOK_SMOKE ? smoke : full);
const SIZES = {
  HOOKS: int('BENCH_WEBHOOK_HOOKS', 1000, 1000),
  CONNECTIONS: int('BENCH_WEBHOOK_CONNECTIONS', 32, 8),
  THROUGHPUT_S: int('BENCH_WEBHOOK_THROUGHPUT_S', 8, 2),
  ROUNDS: int('BENCH_WEBHOOK_ROUNDS', 3, 1),
  RATE: int('BENCH_WEBHOOK_RATE', 200, 50),
  AGENTS: int('BENCH_WEBHOOK_AGENTS', 50, 10),
  LATENCY_S: int('BENCH_WEBHOOK_LATENCY_S', 20, 3),
  BROADCAST_HOOKS: int('BENCH_WEBHOOK_BROADCAST_HOOKS', 50, 5),
  /** 0 skips the saturation phase. */
  BROADCAST_S: int('BENCH_WEBHOOK_BROADCAST_S', 3, 1),
  DRAIN_POSTS: int('BENCH_WEBHOOK_DRAIN_POSTS', 5000, 300),
};
/**
 * BENCH_WEBHOOK_HOOK_KIND, the 1,000 hooks of phase 1: `scoped` (default) `message.posted` each on
 * a channel nobody posts to; `addressed` `message.addressed` with no channel filter (the admin's:
 * the posts address nobody). Neither matches a post; each asks the post statement a different
 * "may a hook hear of this?" probe (common/webhook-outbox.ts).
 */
const HOOK_KINDS = {
  scoped: (i) => ({ events: ['message.posted'], channels: [`elsewhere-${i}`] }),
  addressed: () => ({ events: ['message.addressed'] }),
};
const HOOK_KIND = process.env.BENCH_WEBHOOK_HOOK_KIND ?? 'scoped';
if (!HOOK_KINDS[HOOK_KIND]) throw new Error(`BENCH_WEBHOOK_HOOK_KIND must be one of ${Object.keys(HOOK_KINDS).join(', ')}, not '${HOOK_KIND}'`);
/** `--phases=throughput,latency,drain` (default all three; latency includes the saturation figure). */
const PHASES = new Set((process.argv.find((a) => a.startsWith('--phases='))?.slice('--phases='.length) ?? 'throughput,latency,drain').split(','));
const SERVICE_ENV = { QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QHORUS_RATE_LIMIT_PER_SECOND: '100000', QHORUS_RATE_LIMIT_BURST: '100000' };
/** Agents posting the paced load (each its own keep-alive client). */
const POSTERS = 4;
const TICK_MS = 2;
const POLL_MS = 100;
/** A follower's long poll: re-armed as soon as it answers. */
const FOLLOW_WAIT_MS = 5_000;
/** Time for the followers' first waits to be asleep before the load starts. */
const ARM_MS = 500;
/** Longer than the service's QHORUS_WEBHOOK_POLL_MS (its default): every instance has seen the hooks come or go. */
const HOOKS_SEEN_MS = 1_500;
const DRAIN_TIMEOUT_MS = 300_000;
/** An idle Postgres backend reports its CPU at once (/proc), its transaction counts within PGSTAT_IDLE_INTERVAL (10 s). */
const CPU_SETTLED_MS = 1_000;
const STATS_FLUSHED_MS = 11_000;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stderr.write(`  webhooks: ${msg}\n`);
const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const keyOf = (channel, seq) => `${channel}:${seq}`;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** CPU time (user + system, ms) a process has used, from /proc; 0 once it is gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100); // clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}

/** The database's Postgres backends (pid → CPU ms) and its committed transactions so far. */
async function databaseUsage(url) {
  return withClient(url, async (c) => {
    await c.query('SELECT pg_stat_force_next_flush()');
    const name = new URL(url).pathname.slice(1);
    const backends = (await c.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name])).rows;
    const [{ commits }] = (await c.query('SELECT xact_commit::bigint AS commits FROM pg_stat_database WHERE datname = $1', [name])).rows;
    return { cpu: new Map(backends.map((b) => [b.pid, cpuMs(b.pid)])), commits: Number(commits) };
  });
}

/** A receiver answering 200 at once, recording when each (channel, seq) arrived and how many connections it accepted. */
async function startReceiver() {
  const arrivals = [];
  const counts = { connections: 0 };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = nowMs();
      res.writeHead(200).end();
      try {
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        arrivals.push({ seq: payload.data?.seq, channel: payload.data?.channel, target: payload.data?.target, at });
      } catch {
        /* not ours */
      }
    });
  });
  server.on('connection', () => counts.connections++);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, arrivals, counts, close: () => new Promise((r) => server.close(r)) };
}

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

/**
 * Posts at `rate` msg/s for `seconds`, the k-th message as `message(k)` ({channel, body}) by
 * poster k mod n; the send time of each (channel, seq), taken before the request went out.
 */
async function pacedPosts(posters, rate, seconds, message) {
  const sentAt = new Map();
  const start = nowMs();
  const inFlight = new Set();
  let issued = 0;
  while (nowMs() - start < seconds * 1000) {
    const due = Math.floor(((nowMs() - start) / 1000) * rate);
    while (issued < due) {
      const { channel, body } = message(issued);
      const client = posters[issued++ % posters.length];
      const at = nowMs();
      const p = client.expectOk('POST', `/api/v1/channels/${channel}/messages`, body).then((m) => sentAt.set(keyOf(channel, m.seq), at));
      inFlight.add(p);
      p.finally(() => inFlight.delete(p));
    }
    await sleep(TICK_MS);
  }
  await Promise.all(inFlight);
  return { sentAt, seconds: (nowMs() - start) / 1000 };
}

async function waitUntil(probe, what, timeoutMs = DRAIN_TIMEOUT_MS) {
  const deadline = nowMs() + timeoutMs;
  while (!(await probe())) {
    if (nowMs() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

/** The first arrival of each sent message, as latencies (ms) from its send time. */
function latencies(sentAt, arrivals) {
  const first = new Map();
  for (const a of arrivals) {
    const key = keyOf(a.channel, a.seq);
    if (sentAt.has(key) && !first.has(key)) first.set(key, a.at - sentAt.get(key));
  }
  return [...first.values()];
}

const summary = (ms) => ({ samples: ms.length, p50Ms: round(percentile(ms, 50)), p95Ms: round(percentile(ms, 95)), p99Ms: round(percentile(ms, 99)), maxMs: round(Math.max(...ms)) });

/** A long poll following one channel: every message it is answered, with the time the answer came. */
function follow(client, channel, after, arrivals) {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      let res;
      try {
        res = await client.request('GET', `/api/v1/channels/${channel}/messages?afterSeq=${after}&waitMs=${FOLLOW_WAIT_MS}`);
      } catch (e) {
        if (stopped) return;
        throw e;
      }
      const at = nowMs();
      if (res.status !== 200) throw new Error(`long poll on ${channel} answered ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      for (const m of res.body) {
        arrivals.push({ channel, seq: m.seq, at });
        after = Math.max(after, m.seq);
      }
    }
  })();
  return {
    done,
    stop() {
      stopped = true;
      client.close(); // ends the wait in flight
    },
  };
}

/**
 * Runs `fn` against a service of its own (a fresh database and queue prefix): each phase starts
 * from empty tables, not from what the one before left (rows, dead tuples, autovacuum at work).
 */
async function withService(stamp, label, poolSize, fn) {
  const db = await createDatabase(stamp, label);
  const queuePrefix = `qbench-${stamp}-${label}`;
  const service = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env: SERVICE_ENV, label: `service (${label})` });
  const closing = [];
  try {
    const admin = new JsonClient(service.url, ADMIN_TOKEN, 8);
    closing.push(admin);
    const register = async (name) => (await admin.expectOk('POST', '/api/v1/agents', { name })).token;
    return await fn({ db, service, admin, register, closing });
  } finally {
    for (const c of closing) c.close();
    await service.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
}

/** 1. POST throughput without and with HOOKS hooks that match nothing posted. */
function postThroughput(stamp, poolSize, receiver) {
  return withService(stamp, 'whthroughput', poolSize, async ({ db, service, admin, register, closing }) => {
    const clients = [];
    for (let i = 0; i < SIZES.CONNECTIONS; i++) clients.push(new JsonClient(service.url, await register(`poster-${i}`), 1));
    closing.push(...clients);
    const channels = Array.from({ length: SIZES.CONNECTIONS }, (_, i) => `post-${i}`);
    for (const name of channels) await admin.expectOk('POST', '/api/v1/channels', { name, summaryThreshold: 100000 });

    const loadStart = loadAverage();
    log(`POST throughput: ${SIZES.CONNECTIONS} connections, ${SIZES.ROUNDS} × ${SIZES.THROUGHPUT_S} s without and with ${SIZES.HOOKS} ${HOOK_KIND} hooks, alternating (load ${loadStart.join(' ')})`);
    for (let i = 0; i < SIZES.HOOKS; i++) await admin.expectOk('POST', '/api/v1/webhooks', { url: receiver.url, ...HOOK_KINDS[HOOK_KIND](i) });
    // The hooks are switched off and on in SQL between rounds; the service sees it within its poll.
    const setHooks = async (enabled) => {
      await withClient(db.url, (c) => c.query(`UPDATE webhooks SET disabled_at = ${enabled ? 'NULL' : 'now()'}`));
      await sleep(HOOKS_SEEN_MS);
    };
    await closedLoopPosts(clients, channels, 1); // warm-up
    // Each round: posts/s, and the CPU the service process and the database's Postgres backends
    // spent per post (µs), a figure the other jobs on a shared machine move far less than the rate.
    const round_ = async () => {
      const [cpu0, usage0] = [cpuMs(service.pid), await databaseUsage(db.url)];
      const started = nowMs();
      const perSecond = await closedLoopPosts(clients, channels, SIZES.THROUGHPUT_S);
      const posts = (perSecond * (nowMs() - started)) / 1000;
      const serviceCpu = cpuMs(service.pid) - cpu0;
      const usage1 = await databaseUsage(db.url);
      let postgresCpu = 0;
      for (const [pid, ms] of usage1.cpu) postgresCpu += ms - (usage0.cpu.get(pid) ?? 0);
      return { perSecond, serviceCpuUs: (serviceCpu * 1000) / posts, postgresCpuUs: (postgresCpu * 1000) / posts };
    };
    const without = [];
    const withHooks = [];
    for (let r = 0; r < SIZES.ROUNDS; r++) {
      await setHooks(false);
      without.push(await round_());
      await setHooks(true);
      withHooks.push(await round_());
    }
    const meanOf = (rounds, key) => mean(rounds.map((r) => r[key]));
    const outboxLeft = await withClient(db.url, async (c) => (await c.query('SELECT count(*)::int AS n FROM webhook_outbox')).rows[0].n);
    return {
      hookKind: HOOK_KIND,
      withoutHooks: round(meanOf(without, 'perSecond')),
      withHooks: round(meanOf(withHooks, 'perSecond')),
      drop: round(1 - meanOf(withHooks, 'perSecond') / meanOf(without, 'perSecond'), 4),
      rounds: { without: without.map((r) => round(r.perSecond)), withHooks: withHooks.map((r) => round(r.perSecond)) },
      cpuPerPostUs: {
        without: { service: Math.round(meanOf(without, 'serviceCpuUs')), postgres: Math.round(meanOf(without, 'postgresCpuUs')) },
        withHooks: { service: Math.round(meanOf(withHooks, 'serviceCpuUs')), postgres: Math.round(meanOf(withHooks, 'postgresCpuUs')) },
      },
      outboxLeftAfterRun: outboxLeft,
      loadAverage: { start: loadStart, end: loadAverage() },
    };
  });
}

/** 2 and 3. Addressed messages (webhooks, long polls, both), then the broadcast saturation. */
function addressedLatency(stamp, poolSize, receiver) {
  return withService(stamp, 'whlatency', poolSize, async ({ db, service, admin, register, closing }) => {
    // 2. Addressed messages, in three windows of the same load: webhooks alone (no long polls),
    // long polls alone (the hooks disabled), then both at once.
    const posters = [];
    for (let i = 0; i < POSTERS; i++) posters.push(new JsonClient(service.url, await register(`pacer-${i}`), 16));
    closing.push(...posters);
    const agents = [];
    const addressedHooks = [];
    for (let i = 0; i < SIZES.AGENTS; i++) {
      const name = `hooked-${i}`;
      const token = await register(name);
      const channel = `lat-${i}`;
      await admin.expectOk('POST', '/api/v1/channels', { name: channel, summaryThreshold: 100000 });
      const own = new JsonClient(service.url, token, 2);
      closing.push(own);
      addressedHooks.push((await own.expectOk('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.addressed'], channels: [channel] })).id);
      agents.push({ name, channel, token, lastSeq: 0 });
    }
    const setAddressedHooks = async (enabled) => {
      await withClient(db.url, (c) => c.query(`UPDATE webhooks SET disabled_at = ${enabled ? 'NULL' : 'now()'} WHERE id = ANY($1)`, [addressedHooks]));
      await sleep(HOOKS_SEEN_MS);
    };
    await sleep(HOOKS_SEEN_MS);

    /** RATE msg/s for LATENCY_S, each addressed to one agent in its own channel; what reached the receiver and the long polls. */
    const addressedWindow = async (what, { hooks, longPolls }) => {
      await setAddressedHooks(hooks);
      const startLoad = loadAverage();
      log(`addressed, ${what}: ${SIZES.RATE} msg/s for ${SIZES.LATENCY_S} s, each to one of ${SIZES.AGENTS} agents (load ${startLoad.join(' ')})`);
      const polled = [];
      const followers = longPolls ? agents.map((a) => follow(new JsonClient(service.url, a.token, 1), a.channel, a.lastSeq, polled)) : [];
      await sleep(ARM_MS);
      receiver.arrivals.length = 0;
      const [serviceCpu0, usage0] = [cpuMs(service.pid), await databaseUsage(db.url)];
      const sent = await pacedPosts(posters, SIZES.RATE, SIZES.LATENCY_S, (k) => {
        const a = agents[k % agents.length];
        return { channel: a.channel, body: { type: 'STATUS', content: 'ping', target: a.name } };
      });
      const expected = sent.sentAt.size;
      for (const a of agents) for (const key of sent.sentAt.keys()) if (key.startsWith(`${a.channel}:`)) a.lastSeq = Math.max(a.lastSeq, Number(key.split(':')[1]));
      const arrived = (arrivals) => latencies(sent.sentAt, arrivals).length;
      await waitUntil(async () => (!hooks || arrived(receiver.arrivals) >= expected) && (!longPolls || arrived(polled) >= expected), `${what}: ${expected} messages`);
      const serviceCpu = cpuMs(service.pid) - serviceCpu0;
      const endLoad = loadAverage();
      for (const f of followers) f.stop();
      await Promise.all(followers.map((f) => f.done));
      await sleep(CPU_SETTLED_MS);
      const usage1 = await databaseUsage(db.url);
      let postgresCpu = 0;
      for (const [pid, ms] of usage1.cpu) postgresCpu += ms - (usage0.cpu.get(pid) ?? 0);
      const misaddressed = receiver.arrivals.filter((a) => !agents.some((x) => x.name === a.target && x.channel === a.channel)).length;
      return {
        rate: round(expected / sent.seconds),
        posts: expected,
        webhook: hooks ? { ...summary(latencies(sent.sentAt, receiver.arrivals)), deliveries: receiver.arrivals.length, misaddressed } : null,
        longPoll: longPolls ? summary(latencies(sent.sentAt, polled)) : null,
        // What the service process and the database's Postgres backends spent per message, all included.
        perMessage: { serviceCpuUs: Math.round((serviceCpu * 1000) / expected), postgresCpuUs: Math.round((postgresCpu * 1000) / expected) },
        loadAverage: { start: startLoad, end: endLoad },
      };
    };
    const latency = {
      agents: SIZES.AGENTS,
      webhooksAlone: await addressedWindow('webhooks alone', { hooks: true, longPolls: false }),
      longPollsAlone: await addressedWindow('long polls alone', { hooks: false, longPolls: true }),
      both: await addressedWindow('webhooks and long polls at once', { hooks: true, longPolls: true }),
    };

    // 3. Saturation: every post to BROADCAST_HOOKS hooks.
    let saturation = null;
    if (SIZES.BROADCAST_S > 0) {
      await admin.expectOk('POST', '/api/v1/channels', { name: 'bcast', summaryThreshold: 100000 });
      for (let i = 0; i < SIZES.BROADCAST_HOOKS; i++) await admin.expectOk('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.posted'], channels: ['bcast'] });
      await sleep(HOOKS_SEEN_MS);
      const loadStart = loadAverage();
      log(`saturation: ${SIZES.RATE} msg/s for ${SIZES.BROADCAST_S} s to ${SIZES.BROADCAST_HOOKS} hooks each (load ${loadStart.join(' ')})`);
      receiver.arrivals.length = 0;
      const started = nowMs();
      const broadcast = await pacedPosts(posters, SIZES.RATE, SIZES.BROADCAST_S, () => ({ channel: 'bcast', body: { type: 'STATUS', content: 'ping' } }));
      const asked = broadcast.sentAt.size * SIZES.BROADCAST_HOOKS;
      const ours = () => receiver.arrivals.filter((a) => a.channel === 'bcast' && broadcast.sentAt.has(keyOf(a.channel, a.seq)));
      await waitUntil(async () => ours().length >= asked, `${asked} deliveries`);
      const all = ours();
      const ms = all.map((a) => a.at - broadcast.sentAt.get(keyOf(a.channel, a.seq)));
      saturation = {
        rate: round(broadcast.sentAt.size / broadcast.seconds),
        hooks: SIZES.BROADCAST_HOOKS,
        deliveries: all.length,
        askedPerSecond: round(asked / broadcast.seconds),
        deliveredPerSecond: round(all.length / ((Math.max(...all.map((a) => a.at)) - started) / 1000)),
        ...summary(ms),
        loadAverage: { start: loadStart, end: loadAverage() },
      };
    }
    return { latency, saturation };
  });
}


async function outboxDrain(stamp, poolSize, receiver) {
  const db = await createDatabase(stamp, 'whdrain');
  const queuePrefix = `qbench-${stamp}-webhooks-drain`;
  const api = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env: { ...SERVICE_ENV, QHORUS_ROLE: 'api' }, label: 'api' });
  let worker = null;
  try {
    const admin = new JsonClient(api.url, ADMIN_TOKEN, 8);
    const poster = new JsonClient(api.url, (await admin.expectOk('POST', '/api/v1/agents', { name: 'poster' })).token, 8);
    await admin.expectOk('POST', '/api/v1/channels', { name: 'drain', summaryThreshold: 100000 });
    await admin.expectOk('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.posted'], channels: ['drain'] });
    const loadStart = loadAverage();
    log(`outbox drain: ${SIZES.DRAIN_POSTS} events stored with no worker, then one worker (load ${loadStart.join(' ')})`);
    const batch = 500;
    for (let i = 0; i < SIZES.DRAIN_POSTS; i += batch) {
      const n = Math.min(batch, SIZES.DRAIN_POSTS - i);
      await poster.expectOk('POST', '/api/v1/channels/drain/messages/batch', { messages: Array.from({ length: n }, (_, k) => ({ type: 'STATUS', content: `event ${i + k}` })) });
    }
    receiver.arrivals.length = 0;
    const connectionsBefore = receiver.counts.connections;
    const outbox = () => withClient(db.url, async (c) => (await c.query('SELECT count(*)::int AS n FROM webhook_outbox')).rows[0].n);
    const stored = await outbox();
    // The outbox stays locked while the worker starts, so the drain begins when the clock does.
    let workerStartMs = 0;
    let ready = 0;
    let workerCpu0 = 0;
    let usage0 = null;
    await withClient(db.url, async (lock) => {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE webhook_outbox IN EXCLUSIVE MODE');
      const started = nowMs();
      worker = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env: { ...SERVICE_ENV, QHORUS_ROLE: 'worker' }, label: 'worker' });
      workerStartMs = nowMs() - started;
      usage0 = await databaseUsage(db.url);
      workerCpu0 = cpuMs(worker.pid);
      ready = nowMs();
      await lock.query('ROLLBACK');
    });
    await waitUntil(async () => (await outbox()) === 0, 'the outbox to empty');
    const fannedOut = nowMs();
    await waitUntil(async () => new Set(receiver.arrivals.filter((a) => a.channel === 'drain').map((a) => a.seq)).size >= SIZES.DRAIN_POSTS, 'every delivery');
    const delivered = nowMs();
    const workerCpu = cpuMs(worker.pid) - workerCpu0;
    await sleep(STATS_FLUSHED_MS);
    const usage1 = await databaseUsage(db.url);
    let postgresCpu = 0;
    for (const [pid, ms] of usage1.cpu) postgresCpu += ms - (usage0.cpu.get(pid) ?? 0);
    poster.close();
    admin.close();
    return {
      events: stored,
      workerStartMs: Math.round(workerStartMs),
      fanOutPerSecond: round(stored / ((fannedOut - ready) / 1000)),
      deliveriesPerSecond: round(SIZES.DRAIN_POSTS / ((delivered - ready) / 1000)),
      connectionsOpened: receiver.counts.connections - connectionsBefore,
      perDelivery: {
        workerCpuUs: Math.round((workerCpu * 1000) / SIZES.DRAIN_POSTS),
        postgresCpuUs: Math.round((postgresCpu * 1000) / SIZES.DRAIN_POSTS),
        transactions: round((usage1.commits - usage0.commits) / SIZES.DRAIN_POSTS, 2),
      },
      loadAverage: { start: loadStart, end: loadAverage() },
    };
  } finally {
    await worker?.stop();
    await api.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
}

async function main() {
  const { CONFIG_DEFAULTS } = dist.require.configDefaults();
  const poolSize = CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE;
  const stamp = runStamp();
  const receiver = await startReceiver();
  try {
    const started = new Date().toISOString();
    const loadAtStart = loadAverage();
    const throughput = PHASES.has('throughput') ? await postThroughput(stamp, poolSize, receiver) : undefined;
    const latency = PHASES.has('latency') ? await addressedLatency(stamp, poolSize, receiver) : {};
    const drain = PHASES.has('drain') ? await outboxDrain(stamp, poolSize, receiver) : undefined;
    process.stdout.write(`${JSON.stringify({ started, ended: new Date().toISOString(), loadAtStart, sizes: SIZES, throughput, ...latency, drain })}\n`);
  } finally {
    await receiver.close();
  }
}

if (require.main === module) {
  main().catch((e) => {
    process.stderr.write(`${e.stack}\n`);
    process.exitCode = 1;
  });
}

module.exports = { addressedLatency, outboxDrain, postThroughput };
