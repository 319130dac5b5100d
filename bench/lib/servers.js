'use strict';
// The servers under test, each a child process: the compiled service in production mode
// (Postgres + BullMQ), the bare baselines and the Nest floor, with the same Postgres pool size.
const { join } = require('node:path');
const cfg = require('../config');
const dist = require('./dist');
const { startServer } = require('./processes');

/**
 * The service as a user runs it on Postgres + Redis: every knob at its default (LOG_LEVEL=info
 * with a line per request, the default per-agent rate limit, threshold 20), except the
 * connection URLs, the admin token and the pool size the baselines get too.
 */
function startService({ databaseUrl, queuePrefix, poolSize, nodeArgs, env = {}, label = 'service' }) {
  return startServer({
    label,
    script: dist.SERVICE_ENTRY,
    nodeArgs,
    readyPath: '/health',
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      REDIS_URL: cfg.REDIS_URL,
      QHORUS_QUEUE_PREFIX: queuePrefix,
      QHORUS_ADMIN_TOKEN: cfg.ADMIN_TOKEN,
      QHORUS_DB_POOL_SIZE: String(poolSize),
      ...env,
    },
  });
}

/** The bare server; `prepared`: named statements, prepared once per connection (see baseline/server.js). */
function startBaseline({ databaseUrl, poolSize, nodeArgs, prepared = false }) {
  return startServer({
    label: prepared ? 'prepared baseline' : 'baseline',
    script: join(__dirname, '..', 'baseline', 'server.js'),
    nodeArgs,
    readyPath: '/health',
    env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, POOL_SIZE: String(poolSize), PREPARED_STATEMENTS: prepared ? '1' : '0' },
  });
}

/** NestJS + guard + ValidationPipe + a pino line per request, the prepared SQL (see baseline/nest-floor.js). */
function startNestFloor({ databaseUrl, poolSize, nodeArgs }) {
  return startServer({
    label: 'nest floor',
    script: join(__dirname, '..', 'baseline', 'nest-floor.js'),
    nodeArgs,
    readyPath: '/health',
    env: { NODE_ENV: 'production', DATABASE_URL: databaseUrl, POOL_SIZE: String(poolSize) },
  });
}

module.exports = { startService, startBaseline, startNestFloor };
