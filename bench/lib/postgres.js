'use strict';
const { Client } = require('pg');
const { PG_ADMIN_URL } = require('../config');
const dist = require('./dist');

function urlFor(database) {
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function adminQuery(sql) {
  const c = new Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A fresh database `qhorus_bench_<ts>_<label>` (a copy of `template` when given: nobody may be connected to it); `drop()` removes it. */
async function createDatabase(stamp, label, template) {
  const name = `qhorus_bench_${stamp}_${label}`;
  await adminQuery(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  return { name, url: urlFor(name), drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** The service's own migration step (compiled), so the baseline has exactly the same schema. */
async function runMigrations(url) {
  await dist.require.runMigrations().runMigrations(url, { serialise: false });
}

/** Runs `fn(client)` with a short-lived connection to `url`. */
async function withClient(url, fn) {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

module.exports = { createDatabase, runMigrations, withClient };
