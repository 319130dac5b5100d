'use strict';
// Summary freshness under a steady paced load (not autocannon's maximum): RATE messages/s spread
// round-robin over CHANNELS channels at the default threshold. For every watermark W a channel's
// summary reaches, the post with seq W + threshold is the one that makes the next summary due;
// freshness = (first summary.updated covering that seq) − (the moment that post was sent).
// summary.updated is observed on the SSE endpoint when the service has it; otherwise the commit
// times recorded by Postgres (history.created_at − message.created_at) are used — no polling load.
const http = require('node:http');
const { FRESHNESS } = require('../config');
const { JsonClient } = require('../lib/http');
const { withClient } = require('../lib/postgres');
const { percentile } = require('../lib/stats');

const TICK_MS = 2;
const SSE_PROBE_TIMEOUT_MS = 2_000;
const EVENT_NAME = 'summary.updated';

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

/** Finds a numeric `coversThroughSeq` anywhere in an event payload. */
function coversOf(payload) {
  if (!payload || typeof payload !== 'object') return undefined;
  if (typeof payload.coversThroughSeq === 'number') return payload.coversThroughSeq;
  for (const v of Object.values(payload)) {
    const found = coversOf(v);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Opens the channel's SSE stream; resolves to a closer, or null when the service has no SSE. */
function openEvents(baseUrl, token, channel, onSummary) {
  const url = new URL(`/api/v1/channels/${channel}/events`, baseUrl);
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (res) => {
      const type = String(res.headers['content-type'] ?? '');
      if (res.statusCode !== 200 || !type.includes('text/event-stream')) {
        res.resume();
        return resolve(null);
      }
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = nowMs();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          let payload;
          try {
            payload = JSON.parse(data.join('\n'));
          } catch {
            continue;
          }
          const name = event !== 'message' ? event : payload?.type ?? payload?.event;
          const covers = coversOf(payload);
          if (name === EVENT_NAME && covers !== undefined) onSummary(covers, at);
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', () => resolve(null));
    req.setTimeout(SSE_PROBE_TIMEOUT_MS, () => req.destroy());
  });
}

/** Posts RATE msgs/s round-robin for durationS; records each post's send time by (channel, seq). */
async function pacedLoad(client, channels, body) {
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
        const p = client.post(`/api/v1/channels/${channels[i]}/messages`, body).then(
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

async function measureFreshness({ baseUrl, token, dbUrl, threshold }) {
  const client = new JsonClient(baseUrl, token, FRESHNESS.MAX_SOCKETS);
  const channels = Array.from({ length: FRESHNESS.CHANNELS }, (_, i) => `fresh-${String(i).padStart(2, '0')}`);
  for (const name of channels) await client.expectOk('POST', '/api/v1/channels', { name });
  const body = JSON.parse(require('../config').POST_BODY);

  const observed = channels.map(() => []);
  const closers = [];
  for (let i = 0; i < channels.length; i++) {
    const close = await openEvents(baseUrl, token, channels[i], (covers, at) => observed[i].push({ covers, at }));
    if (!close) break;
    closers.push(close);
  }
  const viaSse = closers.length === channels.length;
  if (!viaSse) closers.splice(0).forEach((c) => c());

  const jobsBefore = await jobTotals(client);
  const load = await pacedLoad(client, channels, body);
  const countFrom = load.start + FRESHNESS.WARMUP_S * 1000;

  let result;
  if (viaSse) {
    // Wait for the summaries of the last crossings.
    const deadline = nowMs() + FRESHNESS.DRAIN_TIMEOUT_MS;
    const lastSeq = (i) => Math.max(0, ...load.sent[i].keys());
    const settled = () => channels.every((_, i) => lastSeq(i) - Math.max(0, ...observed[i].map((e) => e.covers)) < threshold);
    while (!settled() && nowMs() < deadline) await new Promise((r) => setTimeout(r, 100));
    closers.forEach((c) => c());
    result = samplesFrom(channels, load.sent, observed, threshold, countFrom);
  } else {
    await new Promise((r) => setTimeout(r, FRESHNESS.DRAIN_TIMEOUT_MS / 2));
    result = await freshnessFromDatabase(dbUrl, channels, threshold, load, countFrom);
  }
  const jobsAfter = await jobTotals(client);
  const jobs = jobsAfter.count - jobsBefore.count;
  client.close();
  return {
    jobs,
    meanJobMs: jobs > 0 ? ((jobsAfter.seconds - jobsBefore.seconds) / jobs) * 1000 : NaN,
    method: viaSse ? 'SSE summary.updated' : 'Postgres commit times (no SSE endpoint)',
    samples: result.samples.length,
    missed: result.missed,
    p50: percentile(result.samples, 50),
    p95: percentile(result.samples, 95),
    max: Math.max(...result.samples),
    achievedRate: (load.issued - load.failures) / load.seconds,
    failures: load.failures,
    postP50: load.postP50,
    postP99: load.postP99,
  };
}

/**
 * Without SSE: both ends timestamped by Postgres now() (same clock): a message's created_at, a
 * history version's created_at (its commit transaction). Send times are mapped onto that clock
 * through the warm-up cut-off only (samples are server-side durations).
 */
async function freshnessFromDatabase(dbUrl, channels, threshold, load, countFrom) {
  const warmupEndsAt = Date.now() - (nowMs() - countFrom);
  return withClient(dbUrl, async (c) => {
    const { rows } = await c.query(
      `WITH h AS (
         SELECT ch.name, h.channel_id, h.covers_through_seq, h.created_at FROM channel_summary_history h
         JOIN channels ch ON ch.id = h.channel_id WHERE ch.name = ANY($1)
       ), w AS (
         SELECT DISTINCT name, channel_id, covers + $2::bigint AS crossing FROM (
           SELECT name, channel_id, covers_through_seq AS covers FROM h
           UNION ALL SELECT name, id, 0 FROM channels WHERE name = ANY($1)) x
       )
       SELECT w.name, w.crossing, m.created_at AS posted_at,
              (SELECT min(h.created_at) FROM h WHERE h.channel_id = w.channel_id AND h.covers_through_seq >= w.crossing) AS summarised_at
       FROM w JOIN messages m ON m.channel_id = w.channel_id AND m.seq = w.crossing
       WHERE m.created_at >= $3`,
      [channels, threshold, new Date(warmupEndsAt)],
    );
    const samples = [];
    let missed = 0;
    for (const r of rows) {
      if (r.summarised_at === null) missed++;
      else samples.push(r.summarised_at.getTime() - r.posted_at.getTime());
    }
    return { samples, missed };
  });
}

module.exports = { measureFreshness };
