'use strict';
// Work linearity: one channel, LINEARITY.MESSAGES messages posted at threshold 20 while the
// summary jobs run (BullMQ on the shared Redis, own prefix). The compiled app runs in this
// process with a counting strategy wrapping the heuristic, so "items handed to summarisers" is
// counted where it happens. Cross-check: the summary history's Σ(coversThroughSeq − coversFromSeq + 1),
// which equals the items handed over as long as every summarise() call was committed (the job
// runner commits coversFromSeq = previous watermark + 1 and coversThroughSeq = last seq of the
// batch, and a batch is every seq in between — seqs are gapless and the job reads EVENTs too).
// Run alone: `node bench/scenarios/linearity.js` (after `npx nest build`). Prints JSON.
require('reflect-metadata');
const { ADMIN_TOKEN, AGENT, HOST, LINEARITY, POST_BODY, RATE_LIMIT_LIFTED, REDIS_URL } = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { createDatabase, withClient } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { runStamp } = require('../lib/stamp');

const CHANNEL = 'linearity';
const STRATEGY = 'bench-counting';
const POLL_MS = 200;

/** Wraps a summariser and records every item it is handed. */
class CountingSummariser {
  constructor(inner) {
    this.inner = inner;
    this.calls = 0;
    this.items = 0;
    this.timesSeen = new Map();
  }
  summarise(items, previous, options) {
    this.calls++;
    this.items += items.length;
    for (const m of items) this.timesSeen.set(m.seq, (this.timesSeen.get(m.seq) ?? 0) + 1);
    return this.inner.summarise(items, previous, options);
  }
}

async function postAll(client, total, concurrency) {
  const body = JSON.parse(POST_BODY);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      await client.expectOk('POST', `/api/v1/channels/${CHANNEL}/messages`, body);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Waits until the summary covers seq `through` (and every job that got it there has committed). */
async function waitForSummaryOf(client, through) {
  const deadline = Date.now() + LINEARITY.SETTLE_TIMEOUT_MS;
  let s;
  while (Date.now() < deadline) {
    s = await client.expectOk('GET', `/api/v1/channels/${CHANNEL}/summary`);
    if (s.coversThroughSeq >= through) return s;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const { text, annotations, ...slot } = s;
  throw new Error(`summary of ${CHANNEL} did not reach seq ${through} within ${LINEARITY.SETTLE_TIMEOUT_MS} ms: ${JSON.stringify(slot)}`);
}

async function measureLinearity(stamp = runStamp()) {
  const { loadConfig } = dist.require.appConfig();
  const { createApp } = dist.require.bootstrap();
  const { HeuristicMessageSummariser } = dist.require.channelSummary();
  const db = await createDatabase(stamp, 'linearity');
  const prefix = `qbench-${stamp}-linearity`;
  const counter = new CountingSummariser(new HeuristicMessageSummariser());
  let app;
  try {
    const config = loadConfig({
      DATABASE_URL: db.url,
      REDIS_URL,
      QHORUS_QUEUE_PREFIX: prefix,
      QHORUS_ADMIN_TOKEN: ADMIN_TOKEN,
      QHORUS_RATE_LIMIT_PER_SECOND: RATE_LIMIT_LIFTED,
      QHORUS_RATE_LIMIT_BURST: RATE_LIMIT_LIFTED,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'error',
    });
    app = await createApp(config, { summarisers: { [STRATEGY]: counter } });
    await app.listen(0, HOST);
    const baseUrl = `http://${HOST}:${app.getHttpServer().address().port}`;
    const admin = new JsonClient(baseUrl, ADMIN_TOKEN);
    const { token } = await admin.expectOk('POST', '/api/v1/agents', { name: AGENT });
    const agent = new JsonClient(baseUrl, token, LINEARITY.CONCURRENCY);
    await agent.expectOk('POST', '/api/v1/channels', { name: CHANNEL, summaryThreshold: LINEARITY.THRESHOLD, summariser: STRATEGY });

    const total = LINEARITY.MESSAGES;
    await postAll(agent, total, LINEARITY.CONCURRENCY);
    // The last < threshold messages are not due by themselves: once the jobs have caught up,
    // a refresh summarises that tail, so every message is covered exactly once.
    await waitForSummaryOf(agent, total - LINEARITY.THRESHOLD + 1);
    await agent.expectOk('POST', `/api/v1/channels/${CHANNEL}/summary/refresh`);
    const summary = await waitForSummaryOf(agent, total);
    // A straggler job (a trigger kept while the last one ran) would show up here.
    await new Promise((r) => setTimeout(r, 1_000));

    const history = await withClient(db.url, (c) =>
      c.query(
        `SELECT count(*)::int AS versions, sum(h.covers_through_seq - h.covers_from_seq + 1)::int AS covered
         FROM channel_summary_history h JOIN channels ch ON ch.id = h.channel_id WHERE ch.name = $1`,
        [CHANNEL],
      ),
    );
    const seen = [...counter.timesSeen.values()];
    agent.close();
    admin.close();
    return {
      messages: total,
      threshold: LINEARITY.THRESHOLD,
      itemsHanded: counter.items,
      summariserCalls: counter.calls,
      ratio: counter.items / total,
      seqsSeenTwiceOrMore: seen.filter((n) => n > 1).length,
      seqsNeverSeen: total - counter.timesSeen.size,
      historyVersions: history.rows[0].versions,
      historyCovered: history.rows[0].covered,
      historyRatio: history.rows[0].covered / total,
      finalVersion: summary.version,
    };
  } finally {
    if (app) await app.close();
    await db.drop();
    await deleteRedisPrefix(prefix);
  }
}

if (require.main === module) {
  measureLinearity(process.env.BENCH_STAMP).then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

module.exports = { measureLinearity };
