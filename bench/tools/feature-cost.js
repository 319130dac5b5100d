#!/usr/bin/env node
'use strict';
// What the service's per-request features cost a summary read above the Nest floor, without the
// machine's spread: the service (at its defaults) and the Nest floor are built in ONE process and
// answer GET summary through Fastify's `inject` (no sockets) in interleaved rounds; a round's
// figure is service − floor CPU per request, so load on the machine moves both sides alike.
// FEATURE_COST_OFF switches service features off (comma list) to see what each costs:
//   ratelimit  the rate-limit guard            reqlog   the request-log line (onResponse)
//   reqid      the x-request-id echo           textrule the body/params text rule (preValidation)
//   metrics    the HTTP metrics hook
//   node bench/tools/feature-cost.js                                   (after `npx nest build`)
//   FEATURE_COST_OFF=ratelimit node bench/tools/feature-cost.js
// Prints one JSON line: the median of the per-round differences and each side's median.
require('reflect-metadata');
const { join } = require('node:path');
const pino = require('pino');
const cfg = require('../config');
const dist = require('../lib/dist');
const { createBaselineChannels } = require('../lib/fixtures');
const { createDatabase, runMigrations } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { runStamp } = require('../lib/stamp');
const { median } = require('../lib/stats');

const ROUNDS = Number(process.env.FEATURE_COST_ROUNDS ?? 12);
const REQUESTS_PER_ROUND = Number(process.env.FEATURE_COST_REQUESTS ?? 1_500);
/** Concurrent callers, each its own agent (as the bench's connections are). */
const CALLERS = 16;
const CHANNEL = 'quiet';
const SERVICE_SRC = join(dist.DIST, 'apps/channel-service/src');

/** Each switch replaces one feature by a no-op before the app is built. */
const SWITCHES = {
  ratelimit: () => (require(join(SERVICE_SRC, 'auth/rate-limit.guard.js')).RateLimitGuard.prototype.canActivate = () => true),
  reqlog: () => (require(join(SERVICE_SRC, 'logging/request-log.js')).registerRequestLog = () => {}),
  reqid: () => (require(join(SERVICE_SRC, 'logging/request-id.js')).echoRequestId = (_request, _reply, done) => done()),
  textrule: () => (require(join(SERVICE_SRC, 'common/request-hardening.js')).registerRequestRules = () => {}),
  metrics: () => (require(join(SERVICE_SRC, 'metrics/http-metrics.hook.js')).HttpMetricsHook.prototype.onModuleInit = () => {}),
};

async function main() {
  const off = (process.env.FEATURE_COST_OFF ?? '').split(',').filter(Boolean);
  const unknown = off.filter((name) => !SWITCHES[name]);
  if (unknown.length > 0) throw new Error(`unknown FEATURE_COST_OFF: ${unknown.join(', ')}; known: ${Object.keys(SWITCHES).join(', ')}`);
  for (const name of off) SWITCHES[name]();

  const stamp = runStamp();
  const serviceDb = await createDatabase(stamp, 'featsvc');
  const floorDb = await createDatabase(stamp, 'featfloor');
  const prefix = `qbench-${stamp}-feature-cost`;
  let service;
  let floor;
  let floorBuilt;
  try {
    await runMigrations(floorDb.url);
    await createBaselineChannels(floorDb.url, [CHANNEL]);
    Object.assign(process.env, { DATABASE_URL: floorDb.url, POOL_SIZE: '10', LOG_FILE: '/dev/null' });
    floorBuilt = require('../baseline/nest-floor');
    floor = await floorBuilt.createFloorApp();
    await floor.init();
    const { loadConfig } = dist.require.appConfig();
    const { createApp } = dist.require.bootstrap();
    // The service at its defaults; its log lines go to /dev/null, as the floor's do.
    const config = loadConfig({ DATABASE_URL: serviceDb.url, REDIS_URL: cfg.REDIS_URL, QHORUS_QUEUE_PREFIX: prefix, QHORUS_ADMIN_TOKEN: cfg.ADMIN_TOKEN });
    service = await createApp(config, { logDestination: pino.destination({ dest: '/dev/null', sync: false }) });
    await service.init();
    const serviceHttp = service.getHttpAdapter().getInstance();
    const floorHttp = floor.getHttpAdapter().getInstance();
    await Promise.all([serviceHttp.ready(), floorHttp.ready()]);

    const call = (http, method, url, token, payload) =>
      http.inject({ method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, payload });
    const tokens = [];
    for (let i = 0; i < CALLERS; i++) tokens.push(JSON.parse((await call(serviceHttp, 'POST', '/api/v1/agents', cfg.ADMIN_TOKEN, { name: `${cfg.AGENT}-${i}` })).body).token);
    await call(serviceHttp, 'POST', '/api/v1/channels', tokens[0], { name: CHANNEL, summaryThreshold: cfg.NO_SUMMARY_THRESHOLD });
    const path = `/api/v1/channels/${CHANNEL}/summary`;

    /** CPU of this process per request for one round against `http`. */
    const round = async (http) => {
      let next = 0;
      const started = process.cpuUsage();
      await Promise.all(
        tokens.map(async (token) => {
          while (next++ < REQUESTS_PER_ROUND) {
            const answer = await call(http, 'GET', path, token);
            if (answer.statusCode !== 200) throw new Error(`GET ${path} answered ${answer.statusCode}: ${answer.body.slice(0, 200)}`);
          }
        }),
      );
      const used = process.cpuUsage(started);
      return (used.user + used.system) / REQUESTS_PER_ROUND;
    };
    await round(serviceHttp); // warm-up, both sides
    await round(floorHttp);
    const serviceUs = [];
    const floorUs = [];
    for (let i = 0; i < ROUNDS; i++) {
      serviceUs.push(await round(serviceHttp));
      floorUs.push(await round(floorHttp));
    }
    const differences = serviceUs.map((s, i) => s - floorUs[i]);
    const us = (x) => Math.round(x);
    console.log(
      JSON.stringify({
        off,
        rounds: ROUNDS,
        requestsPerRound: REQUESTS_PER_ROUND,
        aboveFloorUsPerRequest: us(median(differences)),
        differences: differences.map(us),
        serviceUsPerRequest: us(median(serviceUs)),
        floorUsPerRequest: us(median(floorUs)),
      }),
    );
  } finally {
    await service?.close();
    if (floor) await floorBuilt.closeFloorApp(floor);
    await serviceDb.drop();
    await floorDb.drop();
    await deleteRedisPrefix(prefix);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
