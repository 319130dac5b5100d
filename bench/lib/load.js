'use strict';
const autocannon = require('autocannon');
const { readdirSync, readFileSync } = require('node:fs');
const { CONNECTIONS } = require('../config');

/** Linux clock ticks per second (getconf CLK_TCK), the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS_PER_S = 100;

/** User + system CPU seconds a process has used so far (Linux /proc), or NaN elsewhere. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] = utime, fields[12] = stime (fields 14 and 15 of proc(5), counted from `state`)
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_S;
  } catch {
    return NaN;
  }
}

/** CPU seconds used so far by each process whose command name is `comm` (e.g. every Postgres backend), by pid. */
function cpuSecondsByPid(comm) {
  const byPid = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === comm) byPid.set(entry, cpuSeconds(entry));
    } catch {
      /* the process ended while we looked */
    }
  }
  return byPid;
}

/** CPU used between two `cpuSecondsByPid` readings; a process that ended in between is not counted. */
function cpuSecondsSince(before, after) {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Busy CPU seconds of the whole machine so far (all cores; /proc/stat minus idle and iowait). */
function machineBusySeconds() {
  const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS_PER_S;
}

/**
 * Postgres CPU split by who it worked for, from each process's title (`postgres: 15/main: <user>
 * <database> <client> <state>`, `… autovacuum worker <database>`): the backends of `database`
 * (the server under test's own statements), autovacuum anywhere, and everything else (other
 * databases' backends, the checkpointer, the WAL writer). Without a database name: nothing split.
 */
function postgresCpuByRole(database) {
  const roles = { own: new Map(), autovacuum: new Map(), other: new Map() };
  if (!database) return roles;
  for (const [pid, seconds] of cpuSecondsByPid('postgres')) {
    let title = '';
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      continue;
    }
    const role = title.includes('autovacuum') ? 'autovacuum' : title.includes(` ${database} `) ? 'own' : 'other';
    roles[role].set(pid, seconds);
  }
  return roles;
}

/** Where the machine's CPU went: the server, Postgres (split by role when `database` is given), Redis, this load generator, and all of it. */
function cpuSnapshot(pid, database) {
  const self = process.cpuUsage();
  const pgRoles = postgresCpuByRole(database);
  return {
    server: cpuSeconds(pid),
    postgres: cpuSecondsByPid('postgres'),
    ...(database ? { postgresOwn: pgRoles.own, postgresAutovacuum: pgRoles.autovacuum, postgresOther: pgRoles.other } : {}),
    redis: cpuSecondsByPid('redis-server'),
    loadGenerator: (self.user + self.system) / 1e6,
    machine: machineBusySeconds(),
  };
}

/** µs of CPU per request between two snapshots, by consumer. */
function cpuPerRequestUs(before, after, requests) {
  const used = (key) => (after[key] instanceof Map ? cpuSecondsSince(before[key], after[key]) : after[key] - before[key]);
  return Object.fromEntries(Object.keys(after).map((key) => [key, Math.round((used(key) / requests) * 1e6)]));
}

/**
 * One autocannon run. Connection i sends every request to `paths[i % paths.length]`, so with one
 * path per connection each connection owns a channel; `headers` may be a list too (connection i
 * speaks as agent i, so the default per-agent rate limit applies as in a fleet). Returns req/s (2xx only), p50, p99 (ms),
 * and the server process's CPU time per request (µs) — a figure much less sensitive to other
 * load on the machine than req/s.
 */
/** The database each server under test uses, by its pid (registered by the bench when it starts them). */
const databaseOfServer = new Map();
function registerServerDatabase(pid, database) {
  databaseOfServer.set(pid, database);
}

async function runLoad({ url, method, paths, headers = {}, body, durationS, pid, expectStatus = '2xx' }) {
  const database = databaseOfServer.get(pid);
  let next = 0;
  const headersList = Array.isArray(headers) ? headers : [headers];
  const cpuBefore = cpuSnapshot(pid, database);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationS,
    method,
    headers: headersList[0],
    body,
    setupClient: (client) => {
      const i = next++;
      client.setRequests([{ method, path: paths[i % paths.length], headers: headersList[i % headersList.length], body }]);
    },
  });
  // `expectStatus: '3xx'` measures conditional reads: every answer must be a 304.
  const ok = result[expectStatus];
  const unexpected = result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'] - ok;
  if (unexpected > 0 || result.errors > 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new Error(`${method} ${url}: ${unexpected} answers not ${expectStatus}, ${result.errors} errors (${codes}); the run is not valid (expected ${expectStatus})`);
  }
  const cpuAfter = cpuSnapshot(pid, database);
  /** µs of CPU per answered request, by consumer; `machine` also counts anything else running. */
  const cpuBreakdownUs = cpuPerRequestUs(cpuBefore, cpuAfter, ok);
  const cpuUsPerRequest = cpuBreakdownUs.server;
  return { rps: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99, requests: ok, cpuUsPerRequest, cpuBreakdownUs };
}

module.exports = { runLoad, cpuSnapshot, cpuPerRequestUs, registerServerDatabase };
