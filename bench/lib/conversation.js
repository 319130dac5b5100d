'use strict';
// A deterministic, busy multi-agent conversation for the in-process heuristic measurement:
// requests opened and answered later (by correlation id or inReplyTo), some never answered,
// decisions, handoffs, failures and machine telemetry, content of typical agent length.

const AGENTS = ['planner', 'coder', 'reviewer', 'tester', 'deployer', 'researcher', 'writer', 'ops', 'security', 'triage'];
const TOPICS = ['build', 'deploy', 'docs', 'infra', 'release', 'incident', 'api', 'billing'];
const MONITOR = 'monitor';
const BASE_TIME_MS = Date.UTC(2025, 0, 1, 9, 0, 0);
/** Share of requests never answered (they stay in openThreads until evicted by the bound). */
const UNANSWERED = 0.1;
const FILLER = 'The change touches the retry policy of the uploader and the cache headers of the static bucket; ';

/** mulberry32: seeded, so every run feeds the same messages. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateConversation(count, seed = 42, channel = 'bench') {
  const rand = prng(seed);
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const messages = [];
  const open = []; // requests awaiting an answer: { seq, correlationId, sender, target, topic }
  for (let seq = 1; seq <= count; seq++) {
    const sender = pick(AGENTS);
    const topic = pick(TOPICS);
    const base = { id: String(seq), channel, seq, sender, topic, correlationId: null, inReplyTo: null, target: null, metadata: null, createdAt: new Date(BASE_TIME_MS + seq * 1000) };
    const r = rand();
    let m;
    if (r < 0.2) {
      const type = rand() < 0.6 ? 'QUERY' : 'COMMAND';
      const target = pick(AGENTS);
      const correlationId = `c-${seq}`;
      m = { ...base, type, target, correlationId, content: `${type === 'QUERY' ? 'Can you check' : 'Please run'} the ${topic} pipeline for change ${seq}? ${FILLER.slice(0, 40 + Math.floor(rand() * 60))}` };
      if (rand() > UNANSWERED) open.push({ seq, correlationId, target, topic });
    } else if (r < 0.4 && open.length > 0) {
      const q = open.splice(Math.floor(rand() * Math.min(open.length, 8)), 1)[0];
      const closing = pick(['RESPONSE', 'RESPONSE', 'RESPONSE', 'DONE', 'DECLINE', 'FAILURE']);
      const byReply = rand() < 0.3;
      m = {
        ...base,
        type: closing,
        sender: q.target,
        topic: q.topic,
        // A reply by inReplyTo alone is stored with its request's correlation id (the service gives it).
        correlationId: q.correlationId,
        inReplyTo: byReply ? q.seq : null,
        content: closing === 'DONE' && rand() < 0.3 ? `Decision: ship change ${q.seq} behind a flag` : `${closing.toLowerCase()} on ${q.correlationId}: ${FILLER.slice(0, 60 + Math.floor(rand() * 40))}`,
      };
    } else if (r < 0.6) {
      m = { ...base, type: 'STATUS', content: rand() < 0.05 ? `Decision: freeze ${topic} until the release is cut` : `Working on ${topic}: ${FILLER.slice(0, 50 + Math.floor(rand() * 50))}` };
    } else if (r < 0.75) {
      m = { ...base, type: 'EVENT', sender: MONITOR, topic: 'telemetry', content: `{"cpu":${Math.floor(rand() * 100)},"queue":${Math.floor(rand() * 1000)}}` };
    } else if (r < 0.8) {
      m = { ...base, type: 'HANDOFF', target: pick(AGENTS), content: `Handing ${topic} over, context in the thread above` };
    } else {
      m = { ...base, type: 'RESPONSE', content: `Noted; ${FILLER.slice(0, 30 + Math.floor(rand() * 70))}` };
    }
    messages.push(Object.freeze(m));
  }
  return messages;
}

module.exports = { generateConversation };
