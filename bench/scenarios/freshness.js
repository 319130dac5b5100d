'use strict';
// Summary freshness under a steady paced load (not autocannon's maximum): RATE messages/s spread
// round-robin over CHANNELS channels at the default threshold. For every watermark W a channel's
// summary reaches, the post with seq W + threshold is the one that makes the next summary due;
// freshness = (first summary.updated covering that seq) − (the moment that post was sent).
// summary.updated is observed on the SSE endpoint, as an agent would. Send times are taken when
// the loader issues the request (so client-side queueing, if the service falls behind, counts).
const { FRESHNESS, POST_BODY } = require('../config');
const { JsonClient } = require('../lib/http');
const { openSummaryEvents } = require('../lib/sse');
const { percentile } = require('../lib/stats');

/** The paced loader's timer: it catches up to the schedule on every tick. */
const TICK_MS = 2;
const SETTLE_POLL_MS = 100;

const nowMs = () => Number(process.hrtime.bigint()) / 1e6;
const JOB_DURATION_METRIC = 'qhorus_summary_job_duration_seconds';

/** Summary jobs run so far and their total run time (s), from the service's /metrics. */
async function jobTotals(client) {
  const res = await client.get('/metrics');
  const text = typeof res.body === 'string' ? res.body : '';
  const sum = (suffix) =>
    text
      .split('\n')
      .filter((l) => l.startsWith(`${JOB_DURATION_METRIC}_${suffix}`))
      .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  return { count: sum('count'), seconds: sum('sum') };
}

/** Posts RATE msgs/s round-robin for durationS; records each post's send time by (channel, seq). */
async function pacedLoad(clients, channels, body) {
  const sent = channels.map(() => new Map()); // seq → send time (ms)
  const latencies = [];
  let failures = 0;
  let issued = 0;
  const inFlight = new Set();
  const start = nowMs();
  const end = start + FRESHNESS.DURATION_S * 1000;
  await new Promise((resolve) => {
    const tick = () => {
      const t = nowMs();
      const due = Math.min(Math.floor(((Math.min(t, end) - start) / 1000) * FRESHNESS.RATE), FRESHNESS.RATE * FRESHNESS.DURATION_S);
      while (issued < due) {
        const i = issued++ % channels.length;
        const at = nowMs();
        const p = clients[i % clients.length].post(`/api/v1/channels/${channels[i]}/messages`, body).then(
          (res) => {
            if (res.status !== 201) failures++;
            else {
              sent[i].set(res.body.seq, at);
              latencies.push(nowMs() - at);
            }
          },
          () => failures++,
        );
        inFlight.add(p);
        p.finally(() => inFlight.delete(p));
      }
      if (t >= end) resolve();
      else setTimeout(tick, TICK_MS);
    };
    tick();
  });
  await Promise.all(inFlight);
  return { sent, start, seconds: (nowMs() - start) / 1000, issued, failures, postP50: percentile(latencies, 50), postP99: percentile(latencies, 99) };
}

/** Freshness samples from (watermark → time) observations per channel. */
function samplesFrom(channels, sent, observed, threshold, countFrom) {
  const samples = [];
  let missed = 0;
  channels.forEach((_, i) => {
    const events = observed[i].sort((a, b) => a.covers - b.covers || a.at - b.at);
    const watermarks = [0, ...events.map((e) => e.covers)];
    const seen = new Set();
    for (const w of watermarks) {
      const crossing = w + threshold;
      if (seen.has(crossing)) continue;
      seen.add(crossing);
      const sentAt = sent[i].get(crossing);
      if (sentAt === undefined || sentAt < countFrom) continue; // not posted, or during warm-up
      const first = events.filter((e) => e.covers >= crossing).reduce((min, e) => Math.min(min, e.at), Infinity);
      if (first === Infinity) missed++;
      else samples.push(first - sentAt);
    }
  });
  return { samples, missed };
}

/** `tokens`: several agents share the paced load, each under the default per-agent rate limit. */
async function measureFreshness({ baseUrl, tokens, threshold }) {
  const [token] = tokens;
  const client = new JsonClient(baseUrl, token, FRESHNESS.MAX_SOCKETS);
  const posters = tokens.map((t) => new JsonClient(baseUrl, t, Math.max(1, Math.ceil(FRESHNESS.MAX_SOCKETS / tokens.length))));
  const channels = Array.from({ length: FRESHNESS.CHANNELS }, (_, i) => `fresh-${String(i).padStart(2, '0')}`);
  for (const name of channels) await client.expectOk('POST', '/api/v1/channels', { name });

  const observed = channels.map(() => []);
  const closers = [];
  for (let i = 0; i < channels.length; i++) {
    // Streams spread over the agents: each agent has its own cap on open streams (QHORUS_MAX_SSE_STREAMS_PER_AGENT).
    const close = await openSummaryEvents(baseUrl, tokens[i % tokens.length], channels[i], nowMs, (covers, at) => observed[i].push({ covers, at }));
    if (!close) throw new Error(`no SSE stream at /api/v1/channels/${channels[i]}/events: freshness is observed there`);
    closers.push(close);
  }

  const jobsBefore = await jobTotals(client);
  const load = await pacedLoad(posters, channels, JSON.parse(POST_BODY));
  // Wait for the summaries of the last crossings.
  const deadline = nowMs() + FRESHNESS.DRAIN_TIMEOUT_MS;
  const lastSeq = (i) => Math.max(0, ...load.sent[i].keys());
  const settled = () => channels.every((_, i) => lastSeq(i) - Math.max(0, ...observed[i].map((e) => e.covers)) < threshold);
  while (!settled() && nowMs() < deadline) await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
  closers.forEach((close) => close());
  const result = samplesFrom(channels, load.sent, observed, threshold, load.start + FRESHNESS.WARMUP_S * 1000);
  const jobsAfter = await jobTotals(client);
  const jobs = jobsAfter.count - jobsBefore.count;
  client.close();
  posters.forEach((p) => p.close());
  return {
    method: 'SSE summary.updated',
    samples: result.samples.length,
    missed: result.missed,
    p50: percentile(result.samples, 50),
    p95: percentile(result.samples, 95),
    max: Math.max(...result.samples),
    achievedRate: (load.issued - load.failures) / load.seconds,
    failures: load.failures,
    postP50: load.postP50,
    postP99: load.postP99,
    jobs,
    meanJobMs: jobs > 0 ? ((jobsAfter.seconds - jobsBefore.seconds) / jobs) * 1000 : NaN,
  };
}

module.exports = { measureFreshness };
