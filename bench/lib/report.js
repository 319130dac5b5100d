'use strict';
const { TARGETS } = require('../config');

const int = (n) => Math.round(n).toLocaleString('en-US');
const ms = (n) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : 'n/a');
const us = (n) => (Number.isFinite(n) ? `${Math.round(n)} µs` : 'n/a');
const pct = (n) => `${(n * 100).toFixed(0)} %`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/** The markdown table `npm run bench` prints (and docs/benchmarks.md records). */
function renderReport({ figures, mcp, batch, tracing, embedded, freshness, heuristic, linearity, capacity, sweep, wakeup }) {
  const lines = [];
  if (figures.length > 0) {
    // Each figure against both yardsticks: the plain baseline (statements parsed and planned every
    // time, as most code written by hand does) and the prepared one (the stack's real limit).
    lines.push(
      '| figure | req/s: baseline / prepared baseline / service | service ÷ baseline (target) | service ÷ prepared baseline | ' +
        'p50 / p99: baseline / prepared / service | p99 ÷ baseline, ÷ prepared (target ≤ 3) | server CPU per request: baseline / prepared / service | vs baseline | vs prepared |',
    );
    lines.push('|---|---:|---:|---:|---:|---:|---:|---|---|');
    for (const f of figures) {
      const against = (b) => {
        const ratio = f.service.rps / b.rps;
        const p99Factor = f.service.p99 / b.p99;
        return { ratio, p99Factor, ok: ratio >= f.target && p99Factor <= TARGETS.P99_FACTOR };
      };
      const plain = against(f.baseline);
      const prepared = against(f.prepared);
      const latency = (r) => `${ms(r.p50)} / ${ms(r.p99)}`;
      lines.push(
        `| ${f.title} | ${int(f.baseline.rps)} / ${int(f.prepared.rps)} / ${int(f.service.rps)} | ${pct(plain.ratio)} (≥ ${pct(f.target)}) | ${pct(prepared.ratio)} | ` +
          `${latency(f.baseline)}; ${latency(f.prepared)}; ${latency(f.service)} | ${plain.p99Factor.toFixed(2)}×, ${prepared.p99Factor.toFixed(2)}× | ` +
          `${us(f.baseline.cpuUsPerRequest)} / ${us(f.prepared.cpuUsPerRequest)} / ${us(f.service.cpuUsPerRequest)} | ${verdict(plain.ok)} | ${verdict(prepared.ok)} |`,
      );
    }
    lines.push('');
    // The stack's own floor (NestJS + guard + ValidationPipe + request log + the prepared SQL):
    // what no Nest service on this stack goes below, read against the prepared baseline.
    const floored = figures.filter((f) => f.floor);
    if (floored.length > 0) {
      lines.push('| figure | Nest floor req/s | floor ÷ prepared | service ÷ floor | p99: floor / service | server CPU per request: floor / service |');
      lines.push('|---|---:|---:|---:|---:|---:|');
      for (const f of floored) {
        lines.push(
          `| ${f.title} | ${int(f.floor.rps)} | ${pct(f.floor.rps / f.prepared.rps)} | ${pct(f.service.rps / f.floor.rps)} | ${ms(f.floor.p99)} / ${ms(f.service.p99)} | ` +
            `${us(f.floor.cpuUsPerRequest)} / ${us(f.service.cpuUsPerRequest)} |`,
        );
      }
      lines.push('');
    }
  }
  const rows = [];
  if (batch) {
    const perS = (r) => r.rps * batch.size;
    const { baseline, prepared, floor, service } = batch.figure;
    const vsBare = perS(service) / perS(prepared);
    const vsSingle = perS(service) / batch.singlePostRps;
    // The Nest floor's batch route: nested class-validator DTOs and the bare multi-row insert.
    const floorNote = floor ? `; Nest floor ${int(perS(floor))} msgs/s = ${pct(perS(floor) / perS(prepared))} of it, server CPU per batch floor / service ${us(floor.cpuUsPerRequest)} / ${us(service.cpuUsPerRequest)}` : '';
    rows.push([
      `Batch posting, ${batch.size} messages per request, threshold 20 (messages/s: bare multi-row insert ${int(perS(baseline))} plain / ${int(perS(prepared))} prepared${floorNote}; ` +
        `service p50 / p99 ${ms(service.p50)} / ${ms(service.p99)}; single-post service ${Number.isFinite(batch.singlePostRps) ? int(batch.singlePostRps) : 'n/a'} msgs/s)`,
      `${int(perS(service))} msgs/s = ${pct(vsBare)} of the prepared bare insert, ${Number.isFinite(vsSingle) ? `${vsSingle.toFixed(1)}×` : 'n/a'} single posts`,
      `≥ ${pct(TARGETS.BATCH_RATIO)} and ≥ ${TARGETS.BATCH_VS_SINGLE}×`,
      verdict(vsBare >= TARGETS.BATCH_RATIO && vsSingle >= TARGETS.BATCH_VS_SINGLE),
    ]);
  }
  if (freshness) {
    rows.push([
      `Summary freshness at ${int(freshness.achievedRate)} msg/s over ${freshness.channels} channels (${freshness.method}; ${freshness.samples} crossings${freshness.missed ? `, ${freshness.missed} never summarised` : ''}; ` +
        `${int(freshness.jobs)} jobs, mean run ${ms(freshness.meanJobMs)}; post p50 / p99 ${ms(freshness.postP50)} / ${ms(freshness.postP99)})`,
      `p50 ${ms(freshness.p50)}, p95 ${ms(freshness.p95)}`,
      `p95 ≤ ${TARGETS.FRESHNESS_P95_MS} ms`,
      verdict(freshness.p95 <= TARGETS.FRESHNESS_P95_MS && freshness.missed === 0),
    ]);
  }
  if (mcp) {
    const size = (m) => `${int(m.chars)} chars, ${int(m.tokensByChars)} tokens by chars ÷ 4, ${int(m.tokensEstimated)} by the project's estimate, ${m.tools} tools`;
    rows.push([`MCP \`tools/list\` as an agent (as the admin: ${size(mcp.admin)})`, size(mcp.agent), `< ${int(TARGETS.MCP_TOOLS_LIST_TOKENS)} tokens`, verdict(Math.max(mcp.agent.tokensByChars, mcp.agent.tokensEstimated) < TARGETS.MCP_TOOLS_LIST_TOKENS)]);
  }
  if (tracing) {
    const drop = 1 - tracing.b.rps / tracing.a.rps;
    rows.push([
      `${tracing.title} (OTLP/HTTP to a local collector that drops spans, ${int(tracing.exports)} exports; p99 off / on ${ms(tracing.a.p99)} / ${ms(tracing.b.p99)}; server CPU per request ${us(tracing.a.cpuUsPerRequest)} / ${us(tracing.b.cpuUsPerRequest)})`,
      `${int(tracing.a.rps)} / ${int(tracing.b.rps)} req/s: ${pct(drop)} drop`,
      `drop ≤ ${pct(TARGETS.TRACING_MAX_DROP)}`,
      verdict(drop <= TARGETS.TRACING_MAX_DROP),
    ]);
  }
  if (embedded) {
    for (const f of [embedded.post, embedded.get]) {
      rows.push([
        `${f.title} (p99 ${ms(f.a.p99)} / ${ms(f.b.p99)}; server CPU per request ${us(f.a.cpuUsPerRequest)} / ${us(f.b.cpuUsPerRequest)})`,
        `${int(f.a.rps)} / ${int(f.b.rps)} req/s: embedded = ${pct(f.b.rps / f.a.rps)}`,
        'measured',
        '',
      ]);
    }
  }
  if (heuristic) {
    rows.push([
      `Heuristic summariser on the job path, one core (${int(heuristic.messages)} msgs, batches of ${heuristic.batch}, annotations re-parsed every call; state ${int(heuristic.finalAnnotationBytes)} B; ${heuristic.usPerCall.toFixed(0)} µs per call, ` +
        `plus ${heuristic.roundTripUsPerCall.toFixed(0)} µs for the annotations' jsonb round trip (not in the figure); tracker ${heuristic.trackerUsPerMessage.toFixed(1)} µs/msg; floor (the state keys only decoded and encoded again, no tracking, no report) ${heuristic.floorUsPerCall.toFixed(0)} µs per call = ${int(heuristic.floorMsgsPerS)} msgs/s; old in-process figure, batches of ${heuristic.carriedBatch} carried: ${int(heuristic.carriedMsgsPerS)} msgs/s)`,
      `${int(heuristic.msgsPerS)} msgs/s`,
      'measured (the 200,000 msgs/s target is retired: freshness and jobs per worker are what users feel)',
      '',
    ]);
  }
  if (linearity) {
    rows.push([
      `Work linearity, ${int(linearity.messages)}-message channel, threshold ${linearity.threshold} (items handed to summarisers ÷ messages; history cross-check ${linearity.historyRatio.toFixed(3)})`,
      `${linearity.ratio.toFixed(3)} (${int(linearity.itemsHanded)} items in ${linearity.summariserCalls} calls)`,
      `= ${TARGETS.LINEARITY.toFixed(1)}`,
      verdict(linearity.ratio === TARGETS.LINEARITY && linearity.seqsNeverSeen === 0),
    ]);
    for (const [strategy, r] of Object.entries(linearity.strategies ?? {})) {
      const tiers = Object.entries(r.tiers).map(([tier, n]) => `${tier} ${n}`).join(', ');
      rows.push([
        `Characters handed ÷ posted, \`${strategy}\` channel (${int(linearity.strategyMessages)} messages, ${r.versions} versions: ${tiers}${strategy === 'llm' || strategy === 'tiered' ? '; local Messages API' : ''}); longest text kept = longest previous text handed`,
        `${r.ratio.toFixed(3)} (${int(r.charsHanded)} / ${int(r.charsPosted)}); longest text ${int(r.longestText)} chars`,
        `= ${TARGETS.LINEARITY.toFixed(1)}; ≤ ${int(linearity.textCap)} chars`,
        verdict(r.ratio === TARGETS.LINEARITY && r.longestText <= linearity.textCap),
      ]);
    }
  }
  if (capacity) {
    const { jobs, rss, startup } = capacity;
    rows.push([
      `Summary jobs one worker process sustains (defaults: concurrency 4; ${int(jobs.channels)} channels each crossing threshold 20 through the trigger, ${int(jobs.covered)} covered in ${jobs.seconds.toFixed(1)} s)`,
      `${jobs.jobsPerS.toFixed(0)} jobs/s`,
      'measured',
      jobs.covered === jobs.channels ? 'DONE' : 'MISS',
    ]);
    rows.push([
      `Service RSS: idle / under post load / with ${int(rss.idleChannels)} channels (after sweep rounds, under load)`,
      `${rss.idleMiB.toFixed(0)} / ${rss.underLoadMiB.toFixed(0)} / ${rss.with100kChannelsMiB.toFixed(0)} MiB`,
      'measured',
      '',
    ]);
    rows.push([
      'Embedded default start-up (no DATABASE_URL, no REDIS_URL): fresh data dir / again on its data, spawn → /health 200',
      `${int(startup.freshMs)} ms / ${int(startup.againMs)} ms (RSS ${startup.rssMiB.toFixed(0)} MiB)`,
      'measured',
      '',
    ]);
  }
  if (sweep) {
    rows.push([
      `Sweep round, ${int(sweep.idle)} idle channels (${int(sweep.idleWithBacklog)} with a backlog under the threshold) + ${sweep.due} due, median of ${sweep.rounds} (full scan before: ${sweep.fullScan.medianMs.toFixed(1)} ms)`,
      `${sweep.indexed.medianMs.toFixed(2)} ms (p95 ${sweep.indexed.p95Ms.toFixed(2)} ms, ${sweep.indexed.found} found)`,
      `indexed, same channels`,
      verdict(sweep.sameChannels && sweep.usesIndexes),
    ]);
  }
  if (wakeup) {
    const w = wakeup;
    const p = (s) => `p50 ${ms(s.p50)}, p95 ${ms(s.p95)}`;
    const after = (s) => (s ? `; after the post's own answer: p50 ${ms(s.p50)}, p95 ${ms(s.p95)}` : '');
    rows.push(
      [`Wake-up, post → waiting long poll, same instance (${w.sameInstance.samples} samples, under ${int(w.loadRate)} msg/s; post p50 ${ms(w.postP50)}${w.waitTimeouts ? `; ${w.waitTimeouts} posts not committed within the wait` : ''})`, p(w.sameInstance) + after(w.sameAfterPost), '—', ''],
      [`Wake-up, post on one instance → long poll on another, via Redis (${w.crossInstance.samples} samples, same window)`, p(w.crossInstance) + after(w.crossAfterPost), '—', ''],
      [`Bare Redis pub/sub round trip, same window (${w.redisRoundTrip.samples} samples)`, p(w.redisRoundTrip), '—', ''],
      [
        `${int(w.waiters)} concurrent long polls on one instance (${int(w.waitersHeld)} held; one post woke ${int(w.wokenByOnePost)} in ${ms(w.wakeAllMs)})`,
        `${(w.rssPerWaiterBytes / 1024).toFixed(1)} KiB RSS, ${(w.heapPerWaiterBytes / 1024).toFixed(1)} KiB heap per waiter; ${w.busyDbConnections} DB connections busy (${w.openDbConnections} open)`,
        '0 connections held',
        verdict(w.busyDbConnections === 0),
      ],
      [
        `POST throughput on that instance without / with the waiters`,
        `${int(w.postsPerSWithout)} / ${int(w.postsPerSWith)} req/s (${(w.throughputChange * 100).toFixed(1)} %)`,
        '≤ 10 % drop',
        verdict(w.throughputChange >= -0.1),
      ],
    );
  }
  if (rows.length > 0) {
    lines.push('| figure | measured | target | |');
    lines.push('|---|---:|---:|---|');
    for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  }
  return lines.join('\n');
}

module.exports = { renderReport };
