'use strict';
// Work linearity: one channel, LINEARITY.MESSAGES messages posted at threshold 20 while the
// summary jobs run (BullMQ on the shared Redis, own prefix). The compiled app runs in this
// process with a counting strategy wrapping the heuristic, so "items handed to summarisers" is
// counted where it happens. Cross-check: the summary history's Σ(coversThroughSeq − coversFromSeq + 1),
// which equals the items handed over as long as every summarise() call was committed (the job
// runner commits coversFromSeq = previous watermark + 1 and coversThroughSeq = last seq of the
// batch, and a batch is every seq in between — seqs are gapless and the job reads EVENTs too).
// Then, for every built-in strategy (verbatim, heuristic, llm against a local Messages API
// server, tiered), a channel of its own: the characters of the messages handed to the strategy
// (from the history: each version's covered range, read back from `messages`) ÷ the characters
// posted, and the longest text any version kept — the previous text the next call is handed —
// against the text cap. History retention is lifted so every version is there to count.
// Run alone: `node bench/scenarios/linearity.js` (after `npx nest build`). Prints JSON.
require('reflect-metadata');
const { ADMIN_TOKEN, AGENT, HOST, LINEARITY, POST_BODY, RATE_LIMIT_LIFTED, REDIS_URL } = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { startFakeMessagesApi } = require('../lib/fake-messages-api');
const { createDatabase, withClient } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
const { runStamp } = require('../lib/stamp');

const CHANNEL = 'linearity';
const BUILT_IN = ['verbatim', 'heuristic', 'llm', 'tiered'];
const strategyChannel = (strategy) => `linearity-${strategy}`;
/** Every version kept, so the history accounts for every call. */
const KEEP_ALL_VERSIONS = '1000000000';
/** The model cost guard lifted: the bench agent may pick llm/tiered at threshold 20. */
const MODEL_GUARD_LIFTED = { QHORUS_MODEL_SUMMARISER_POLICY: 'anyone', QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: '1', QHORUS_MODEL_CALLS_PER_HOUR: RATE_LIMIT_LIFTED, QHORUS_MODEL_TOKENS_PER_DAY: RATE_LIMIT_LIFTED };
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

async function postAll(client, total, concurrency, channel = CHANNEL) {
  const body = JSON.parse(POST_BODY);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      next++;
      await client.expectOk('POST', `/api/v1/channels/${channel}/messages`, body);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Waits until the summary covers seq `through` (and every job that got it there has committed). */
async function waitForSummaryOf(client, through, channel = CHANNEL) {
  const deadline = Date.now() + LINEARITY.SETTLE_TIMEOUT_MS;
  let s;
  while (Date.now() < deadline) {
    s = await client.expectOk('GET', `/api/v1/channels/${channel}/summary`);
    if (s.coversThroughSeq >= through) return s;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const { text, annotations, ...slot } = s;
  throw new Error(`summary of ${channel} did not reach seq ${through} within ${LINEARITY.SETTLE_TIMEOUT_MS} ms: ${JSON.stringify(slot)}`);
}

/** Posts `total` messages, waits for the jobs, refreshes the tail: every message covered once. */
async function postAndCover(agent, channel, total) {
  await postAll(agent, total, LINEARITY.CONCURRENCY, channel);
  await waitForSummaryOf(agent, total - LINEARITY.THRESHOLD + 1, channel);
  await agent.expectOk('POST', `/api/v1/channels/${channel}/summary/refresh`);
  return waitForSummaryOf(agent, total, channel);
}

/** Characters handed to the strategy (each version's covered range), posted, the longest text kept, tiers used. */
async function characterLinearity(dbUrl, channel) {
  return withClient(dbUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(*)::int AS versions, COALESCE(sum(x.chars), 0)::bigint AS handed, max(length(h.text))::int AS longest_text,
              (SELECT sum(length(m.content)) FROM messages m WHERE m.channel_id = ch.id)::bigint AS posted
       FROM channels ch
       JOIN channel_summary_history h ON h.channel_id = ch.id
       CROSS JOIN LATERAL (SELECT sum(length(m.content)) AS chars FROM messages m
                           WHERE m.channel_id = h.channel_id AND m.seq BETWEEN h.covers_from_seq AND h.covers_through_seq) x
       WHERE ch.name = $1 GROUP BY ch.id`,
      [channel],
    );
    const tiers = await c.query(
      `SELECT COALESCE(h.annotations->>'tier', '(none)') AS tier, count(*)::int AS n
       FROM channel_summary_history h JOIN channels ch ON ch.id = h.channel_id WHERE ch.name = $1 GROUP BY 1 ORDER BY 1`,
      [channel],
    );
    const r = rows[0];
    return { versions: r.versions, charsHanded: Number(r.handed), charsPosted: Number(r.posted), ratio: Number(r.handed) / Number(r.posted), longestText: r.longest_text, tiers: Object.fromEntries(tiers.rows.map((t) => [t.tier, t.n])) };
  });
}

async function measureLinearity(stamp = runStamp()) {
  const { loadConfig } = dist.require.appConfig();
  const { createApp } = dist.require.bootstrap();
  const { HeuristicMessageSummariser } = dist.require.channelSummary();
  const db = await createDatabase(stamp, 'linearity');
  const prefix = `qbench-${stamp}-linearity`;
  const counter = new CountingSummariser(new HeuristicMessageSummariser());
  const fakeLlm = await startFakeMessagesApi({ answerChars: LINEARITY.LLM_ANSWER_CHARS });
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
      QHORUS_SUMMARY_HISTORY_KEEP: KEEP_ALL_VERSIONS,
      ANTHROPIC_API_KEY: 'bench-local-fake',
      ANTHROPIC_BASE_URL: fakeLlm.baseURL,
      ...MODEL_GUARD_LIFTED,
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
    const strategies = {};
    for (const strategy of BUILT_IN) {
      const channel = strategyChannel(strategy);
      await agent.expectOk('POST', '/api/v1/channels', { name: channel, summaryThreshold: LINEARITY.THRESHOLD, summariser: strategy });
      await postAndCover(agent, channel, LINEARITY.STRATEGY_MESSAGES);
      strategies[strategy] = await characterLinearity(db.url, channel);
    }
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
      strategyMessages: LINEARITY.STRATEGY_MESSAGES,
      textCap: config.QHORUS_SUMMARY_TEXT_MAX_CHARS,
      llmCalls: fakeLlm.stats.calls,
      strategies,
    };
  } finally {
    if (app) await app.close();
    await fakeLlm.close();
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
