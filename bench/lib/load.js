'use strict';
const autocannon = require('autocannon');
const { CONNECTIONS } = require('../config');

/**
 * One autocannon run. Connection i sends every request to `paths[i % paths.length]`, so with one
 * path per connection each connection owns a channel. Returns req/s (2xx only), p50, p99 (ms).
 */
async function runLoad({ url, method, paths, headers = {}, body, durationS }) {
  let next = 0;
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
  return { rps: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99, requests: ok };
}

module.exports = { runLoad };
