'use strict';
// Heuristic summarisation throughput on the path a summary job takes, in process, on one core
// (the runner pins this script with taskset): the channel's composition (state tracker + heuristic
// text, ChannelSummariser) over batches of the default threshold, each call given the previous
// result as the job reads it back from Postgres — a fresh annotations object whose values are
// JSON strings, so every call parses them (no in-memory cache hit, fresh batch arrays). The
// database round trip of the annotations is timed apart (it is the driver's work, not the summariser's). Also: the tracker's own cost
// per message (the same fold without the text), and the old in-process figure (batches of 500, the
// previous result object carried) for comparison, and the floor under the job-path figure (the
// state keys decoded and encoded again, nothing else; one pass). Reports medians over passes.
// Run alone: `node bench/scenarios/heuristic.js` (after `npx nest build`). Prints JSON.
const { HEURISTIC } = require('../config');
const dist = require('../lib/dist');
const { generateConversation } = require('../lib/conversation');
const { median } = require('../lib/stats');

const channel = { name: 'bench', description: 'Release coordination for the web app' };
/** What a job gets back from the `annotations` jsonb column: a new object, values still JSON text. */
const fromDatabase = (result) => (result === null ? null : { text: result.text, annotations: JSON.parse(JSON.stringify(result.annotations)) });

/**
 * The job path. Timed: the summariser call only. Not timed, reported on its own: the annotations'
 * round trip through the jsonb column (encode on commit, decode on the next read), which the
 * database driver does whatever the summariser (it grows with the state's size).
 */
async function jobPathPass(hook, messages, batch) {
  let previous = null;
  let summariserNs = 0n;
  let roundTripNs = 0n;
  for (let i = 0; i < messages.length; i += batch) {
    const read = process.hrtime.bigint();
    const stored = fromDatabase(previous);
    const started = process.hrtime.bigint();
    previous = await hook.update({ channel, previous: stored, coversThroughSeq: i, messages: messages.slice(i, i + batch) });
    summariserNs += process.hrtime.bigint() - started;
    roundTripNs += started - read;
  }
  const calls = Math.ceil(messages.length / batch);
  return {
    msgsPerS: messages.length / (Number(summariserNs) / 1e9),
    usPerCall: Number(summariserNs) / 1e3 / calls,
    roundTripUsPerCall: Number(roundTripNs) / 1e3 / calls,
    textLength: previous.text.length,
    annotationBytes: JSON.stringify(previous.annotations).length,
  };
}

/** The tracker alone, on the same path (the keys' round trip not timed, as in jobPathPass). */
function trackerPass(tracker, messages, batch) {
  let annotations = {};
  let ns = 0n;
  for (let i = 0; i < messages.length; i += batch) {
    const stored = JSON.parse(JSON.stringify(annotations));
    const started = process.hrtime.bigint();
    annotations = tracker.track(stored, messages.slice(i, i + batch)).keys;
    ns += process.hrtime.bigint() - started;
  }
  return { usPerMessage: Number(ns) / 1e3 / messages.length };
}

/**
 * The floor under the job-path figure: per call, only what any summariser that keeps the state
 * keys must do with them, on the same annotations as read back from the database: the small keys
 * (participants, topics, closures, decisions, statuses) parsed and stringified again, the two
 * open-thread texts counted and copied (as the tracker does, without any search or decode). No
 * tracking, no report. The chain of results comes from the real summariser, untimed.
 */
async function floorPass(hook, messages, batch) {
  const { STATE_KEYS } = dist.require.channelSummary();
  const openKeys = new Set([STATE_KEYS.openThreads, STATE_KEYS.openThreadDetails]);
  const jsonKeys = [STATE_KEYS.participants, STATE_KEYS.participantCounts, STATE_KEYS.topics, STATE_KEYS.topicCounts, STATE_KEYS.recentClosures, STATE_KEYS.decisions, STATE_KEYS.latestStatus];
  let previous = null;
  let ns = 0n;
  let sink = 0;
  for (let i = 0; i < messages.length; i += batch) {
    const stored = fromDatabase(previous);
    if (stored !== null) {
      const a = stored.annotations;
      const started = process.hrtime.bigint();
      for (const key of jsonKeys) sink += JSON.stringify(JSON.parse(a[key] ?? 'null')).length;
      for (const key of openKeys) {
        const text = a[key] ?? '';
        for (let at = text.indexOf(',\n'); at >= 0; at = text.indexOf(',\n', at + 2)) sink++;
        const copy = text.slice(0, 2) + text.slice(2, -2) + text.slice(-2);
        sink += copy.charCodeAt(copy.length >> 1) || 0; // reads the copy (flattens it)
      }
      ns += process.hrtime.bigint() - started;
    }
    previous = await hook.update({ channel, previous: stored, coversThroughSeq: i, messages: messages.slice(i, i + batch) });
  }
  const calls = Math.ceil(messages.length / batch) - 1;
  return { usPerCall: Number(ns) / 1e3 / calls, msgsPerS: (calls * batch) / (Number(ns) / 1e9), sink };
}

async function carriedPass(summariser, messages, batch) {
  let previous = null;
  const started = process.hrtime.bigint();
  for (let i = 0; i < messages.length; i += batch) previous = await summariser.summarise(messages.slice(i, i + batch), previous, { preamble: channel.description });
  return { msgsPerS: messages.length / (Number(process.hrtime.bigint() - started) / 1e9) };
}

async function measureHeuristic() {
  const { ChannelStateTracker, ChannelSummariser, HeuristicMessageSummariser } = dist.require.channelSummary();
  const messages = generateConversation(HEURISTIC.MESSAGES);
  const hook = new ChannelSummariser(new HeuristicMessageSummariser(), { name: 'heuristic' });
  const runs = { job: [], tracker: [], carried: [] };
  for (let i = 0; i < HEURISTIC.WARMUP_PASSES + HEURISTIC.PASSES; i++) {
    const measured = i >= HEURISTIC.WARMUP_PASSES;
    const job = await jobPathPass(hook, messages, HEURISTIC.JOB_BATCH);
    const tracker = trackerPass(new ChannelStateTracker(), messages, HEURISTIC.JOB_BATCH);
    const carried = await carriedPass(new HeuristicMessageSummariser(), messages, HEURISTIC.BATCH);
    if (!measured) continue;
    runs.job.push(job);
    runs.tracker.push(tracker);
    runs.carried.push(carried);
  }
  const floor = await floorPass(hook, messages, HEURISTIC.JOB_BATCH);
  const last = runs.job[runs.job.length - 1];
  return {
    msgsPerS: median(runs.job.map((r) => r.msgsPerS)),
    passes: runs.job.map((r) => Math.round(r.msgsPerS)),
    usPerCall: median(runs.job.map((r) => r.usPerCall)),
    roundTripUsPerCall: median(runs.job.map((r) => r.roundTripUsPerCall)),
    trackerUsPerMessage: median(runs.tracker.map((r) => r.usPerMessage)),
    carriedMsgsPerS: median(runs.carried.map((r) => r.msgsPerS)),
    floorUsPerCall: floor.usPerCall,
    floorMsgsPerS: floor.msgsPerS,
    messages: messages.length,
    batch: HEURISTIC.JOB_BATCH,
    carriedBatch: HEURISTIC.BATCH,
    finalTextLength: last.textLength,
    finalAnnotationBytes: last.annotationBytes,
  };
}

if (require.main === module) {
  measureHeuristic().then(
    (r) => console.log(JSON.stringify(r)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}

module.exports = { measureHeuristic };
