#!/usr/bin/env node
'use strict';
// Webhooks (DESIGN §11, issue 30), on the compiled service with Postgres + BullMQ:
//  1. POST throughput (closed loop) with no hooks vs HOOKS hooks registered (none matching the
//     posts: the cost of the outbox row in the post statement and of the workers fanning it out),
//     alternating rounds. Target: ≤ 10 % lower with the hooks.
//  2. Latency post → receiver, p50/p95, at RATE msg/s into one channel with FANOUT hooks on it
//     (every post becomes FANOUT deliveries), the receiver a local HTTP server answering 200.
//  3. Outbox drain: DRAIN_POSTS posts stored by an `api` process with no worker (one matching
//     hook), then one `worker` process started: events fanned out per second (outbox empty) and
//     deliveries per second (all received).
// Run after `npx nest build`: `node bench/webhooks.js`. Sizes: BENCH_WEBHOOK_* below (the
// defaults are the full run; a smoke run: BENCH_WEBHOOK_SMOKE=1). Prints JSON last.
const http = require('node:http');
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
  RATE: int('BENCH_WEBHOOK_RATE', 200, 20),
  FANOUT: int('BENCH_WEBHOOK_FANOUT', 50, 5),
  LATENCY_S: int('BENCH_WEBHOOK_LATENCY_S', 10, 3),
  DRAIN_POSTS: int('BENCH_WEBHOOK_DRAIN_POSTS', 5000, 300),
};
const SERVICE_ENV = { QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QHORUS_RATE_LIMIT_PER_SECOND: '100000', QHORUS_RATE_LIMIT_BURST: '100000' };
const TICK_MS = 2;
const POLL_MS = 100;
/** Longer than the service's QHORUS_WEBHOOK_POLL_MS (its default): every instance has seen the hooks come or go. */
const HOOKS_SEEN_MS = 1_500;
const DRAIN_TIMEOUT_MS = 300_000;
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => process.stderr.write(`  webhooks: ${msg}\n`);

/** A receiver answering 200 at once, recording when each (hook, seq) arrived. */
async function startReceiver() {
  const arrivals = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = nowMs();
      res.writeHead(200).end();
      try {
        const payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        arrivals.push({ seq: payload.data?.seq, channel: payload.data?.channel, at });
      } catch {
        /* not ours */
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, arrivals, close: () => new Promise((r) => server.close(r)) };
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

/** Posts at `rate` msg/s into `channel` for `seconds`; the send time of each seq. */
async function pacedPosts(client, channel, rate, seconds) {
  const sentAt = new Map();
  const start = nowMs();
  const inFlight = new Set();
  let issued = 0;
  while (nowMs() - start < seconds * 1000) {
    const due = Math.floor(((nowMs() - start) / 1000) * rate);
    while (issued < due) {
      issued++;
      const at = nowMs();
      const p = client.expectOk('POST', `/api/v1/channels/${channel}/messages`, { type: 'STATUS', content: 'ping' }).then((m) => sentAt.set(m.seq, at));
      inFlight.add(p);
      p.finally(() => inFlight.delete(p));
    }
    await sleep(TICK_MS);
  }
  await Promise.all(inFlight);
  return sentAt;
}

async function waitUntil(probe, what, timeoutMs = DRAIN_TIMEOUT_MS) {
  const deadline = nowMs() + timeoutMs;
  while (!(await probe())) {
    if (nowMs() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

async function throughputAndLatency(stamp, poolSize, receiver) {
  const db = await createDatabase(stamp, 'webhooks');
  const queuePrefix = `qbench-${stamp}-webhooks`;
  const service = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env: SERVICE_ENV, label: 'service' });
  try {
    const admin = new JsonClient(service.url, ADMIN_TOKEN, 8);
    const clients = [];
    for (let i = 0; i < SIZES.CONNECTIONS; i++) clients.push(new JsonClient(service.url, (await admin.expectOk('POST', '/api/v1/agents', { name: `poster-${i}` })).token, 1));
    const channels = Array.from({ length: SIZES.CONNECTIONS }, (_, i) => `post-${i}`);
    for (const name of [...channels, 'lat']) await admin.expectOk('POST', '/api/v1/channels', { name, summaryThreshold: 100000 });

    log(`POST throughput: ${SIZES.CONNECTIONS} connections, ${SIZES.ROUNDS} × ${SIZES.THROUGHPUT_S} s without and with ${SIZES.HOOKS} hooks, alternating`);
    const hookIds = [];
    for (let i = 0; i < SIZES.HOOKS; i++) {
      hookIds.push((await admin.expectOk('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.posted'], channels: [`elsewhere-${i}`] })).id);
    }
    // The hooks are switched off and on in SQL between rounds; the service sees it within its poll.
    const setHooks = async (enabled) => {
      await withClient(db.url, (c) => c.query(`UPDATE webhooks SET disabled_at = ${enabled ? 'NULL' : 'now()'}`));
      await sleep(HOOKS_SEEN_MS);
    };
    await closedLoopPosts(clients, channels, 1); // warm-up
    const without = [];
    const withHooks = [];
    for (let r = 0; r < SIZES.ROUNDS; r++) {
      await setHooks(false);
      without.push(await closedLoopPosts(clients, channels, SIZES.THROUGHPUT_S));
      await setHooks(true);
      withHooks.push(await closedLoopPosts(clients, channels, SIZES.THROUGHPUT_S));
    }
    const outboxLeft = await withClient(db.url, async (c) => (await c.query('SELECT count(*)::int AS n FROM webhook_outbox')).rows[0].n);

    for (const id of hookIds) await admin.expectOk('DELETE', `/api/v1/webhooks/${id}`);
    log(`latency: ${SIZES.RATE} msg/s for ${SIZES.LATENCY_S} s to ${SIZES.FANOUT} hooks`);
    for (let i = 0; i < SIZES.FANOUT; i++) await admin.expectOk('POST', '/api/v1/webhooks', { url: receiver.url, events: ['message.posted'], channels: ['lat'] });
    await sleep(HOOKS_SEEN_MS);
    receiver.arrivals.length = 0;
    const sentAt = await pacedPosts(clients[0], 'lat', SIZES.RATE, SIZES.LATENCY_S);
    const expected = sentAt.size * SIZES.FANOUT;
    await waitUntil(async () => receiver.arrivals.filter((a) => a.channel === 'lat').length >= expected, `${expected} deliveries`);
    const latencies = receiver.arrivals.filter((a) => a.channel === 'lat' && sentAt.has(a.seq)).map((a) => a.at - sentAt.get(a.seq));
    for (const c of [admin, ...clients]) c.close();
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      throughput: {
        withoutHooks: mean(without),
        withHooks: mean(withHooks),
        drop: 1 - mean(withHooks) / mean(without),
        rounds: { without, withHooks },
        outboxLeftAfterRun: outboxLeft,
      },
      latency: { rate: SIZES.RATE, hooks: SIZES.FANOUT, posts: sentAt.size, deliveries: latencies.length, p50Ms: percentile(latencies, 50), p95Ms: percentile(latencies, 95) },
    };
  } finally {
    await service.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
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
    log(`outbox drain: ${SIZES.DRAIN_POSTS} events stored with no worker, then one worker`);
    const batch = 500;
    for (let i = 0; i < SIZES.DRAIN_POSTS; i += batch) {
      const n = Math.min(batch, SIZES.DRAIN_POSTS - i);
      await poster.expectOk('POST', '/api/v1/channels/drain/messages/batch', { messages: Array.from({ length: n }, (_, k) => ({ type: 'STATUS', content: `event ${i + k}` })) });
    }
    receiver.arrivals.length = 0;
    const outbox = () => withClient(db.url, async (c) => (await c.query('SELECT count(*)::int AS n FROM webhook_outbox')).rows[0].n);
    const stored = await outbox();
    const started = nowMs();
    worker = await startService({ databaseUrl: db.url, queuePrefix, poolSize, env: { ...SERVICE_ENV, QHORUS_ROLE: 'worker' }, label: 'worker' });
    const ready = nowMs();
    await waitUntil(async () => (await outbox()) === 0, 'the outbox to empty');
    const fannedOut = nowMs();
    await waitUntil(async () => new Set(receiver.arrivals.filter((a) => a.channel === 'drain').map((a) => a.seq)).size >= SIZES.DRAIN_POSTS, 'every delivery');
    const delivered = nowMs();
    poster.close();
    admin.close();
    return {
      events: stored,
      workerStartMs: ready - started,
      fanOutPerSecond: stored / ((fannedOut - ready) / 1000),
      deliveriesPerSecond: SIZES.DRAIN_POSTS / ((delivered - ready) / 1000),
    };
  } finally {
    await worker?.stop();
    await api.stop();
    await db.drop();
    await deleteRedisPrefix(queuePrefix);
  }
}

async function main() {
  const { CONFIG_DEFAULTS } = dist.require.appConfig();
  const poolSize = CONFIG_DEFAULTS.QHORUS_DB_POOL_SIZE;
  const stamp = runStamp();
  const receiver = await startReceiver();
  try {
    const started = new Date().toISOString();
    const first = await throughputAndLatency(stamp, poolSize, receiver);
    const drain = await outboxDrain(stamp, poolSize, receiver);
    process.stdout.write(`${JSON.stringify({ started, sizes: SIZES, ...first, drain })}\n`);
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

module.exports = { outboxDrain, throughputAndLatency };
