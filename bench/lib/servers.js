'use strict';
// The two servers under test, each a child process: the compiled service in production mode
// (Postgres + BullMQ) and the bare baseline, with the same Postgres pool size.
const { join } = require('node:path');
const cfg = require('../config');
const dist = require('./dist');
const { startServer } = require('./processes');

/** The service as `npm start` runs it, logging at warn, with the rate limit lifted (see config). */
function startService({ databaseUrl, queuePrefix, poolSize, nodeArgs, env = {}, label = 'service' }) {
  return startServer({
    label,
    script: dist.SERVICE_ENTRY,
    nodeArgs,
    readyPath: '/health',
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      REDIS_URL: cfg.REDIS_URL,
      QHORUS_QUEUE_PREFIX: queuePrefix,
      QHORUS_ADMIN_TOKEN: cfg.ADMIN_TOKEN,
      QHORUS_DB_POOL_SIZE: String(poolSize),
      QHORUS_RATE_LIMIT_PER_SECOND: cfg.RATE_LIMIT_LIFTED,
      QHORUS_RATE_LIMIT_BURST: cfg.RATE_LIMIT_LIFTED,
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

module.exports = { startService, startBaseline };
