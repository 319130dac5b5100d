'use strict';
// Heuristic summariser throughput, in process, on one core (the runner pins this script with
// taskset). Feeds the messages in batches, each call given the previous call's result — exactly
// what the summary job does chunk by chunk — and reports messages/s, median over passes.
// Run alone: `node bench/scenarios/heuristic.js` (after `npx nest build`). Prints JSON.
const { HEURISTIC } = require('../config');
const dist = require('../lib/dist');
const { generateConversation } = require('../lib/conversation');
const { median } = require('../lib/stats');

async function pass(summariser, messages, batch) {
  let previous = null;
  const started = process.hrtime.bigint();
  for (let i = 0; i < messages.length; i += batch) {
    previous = await summariser.summarise(messages.slice(i, i + batch), previous, { preamble: 'Release coordination for the web app' });
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { msgsPerS: messages.length / seconds, seconds, textLength: previous.text.length };
}

async function measureHeuristic() {
  const { HeuristicMessageSummariser } = dist.require.channelSummary();
  const messages = generateConversation(HEURISTIC.MESSAGES);
  const summariser = new HeuristicMessageSummariser();
  for (let i = 0; i < HEURISTIC.WARMUP_PASSES; i++) await pass(summariser, messages, HEURISTIC.BATCH);
  const runs = [];
  for (let i = 0; i < HEURISTIC.PASSES; i++) runs.push(await pass(summariser, messages, HEURISTIC.BATCH));
  return {
    msgsPerS: median(runs.map((r) => r.msgsPerS)),
    passes: runs.map((r) => Math.round(r.msgsPerS)),
    messages: messages.length,
    batch: HEURISTIC.BATCH,
    finalTextLength: runs[runs.length - 1].textLength,
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
