'use strict';
const autocannon = require('autocannon');
const { readFileSync } = require('node:fs');
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

/**
 * One autocannon run. Connection i sends every request to `paths[i % paths.length]`, so with one
 * path per connection each connection owns a channel. Returns req/s (2xx only), p50, p99 (ms),
 * and the server process's CPU time per request (µs) — a figure much less sensitive to other
 * load on the machine than req/s.
 */
async function runLoad({ url, method, paths, headers = {}, body, durationS, pid }) {
  let next = 0;
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationS,
    method,
    headers,
    body,
    setupClient: (client) => {
      client.setRequests([{ method, path: paths[next++ % paths.length], headers, body }]);
    },
  });
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0) {
    const codes = JSON.stringify(result.statusCodeStats);
    throw new Error(`${method} ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors (${codes}); the run is not valid`);
  }
  const cpuUsPerRequest = ((cpuSeconds(pid) - cpuBefore) / ok) * 1e6;
  return { rps: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99, requests: ok, cpuUsPerRequest };
}

module.exports = { runLoad };
