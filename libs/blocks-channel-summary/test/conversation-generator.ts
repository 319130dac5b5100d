import { Message, MessageType } from '@qhorus/api';

/**
 * A deterministic, scripted multi-agent conversation for the heuristic's tests, with its ground
 * truth: every request and the seq of the message that closed it (null = never answered).
 */

export const CHANNEL = 'ops';
export const AGENTS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace'] as const;
export const TOPICS = ['build', 'deploy', 'docs', 'infra', 'release'] as const;
/** Sends EVENTs only: never a participant; its topic never a conversation topic. */
export const MONITOR = 'monitor';
export const TELEMETRY_TOPIC = 'telemetry';
/** Joins late with a topic of its own, to check accumulation across batches. */
export const LATE_AGENT = 'zed';
export const LATE_TOPIC = 'postmortem';
export const LATE_FROM_SEQ = 500;
export const BASE_TIME_MS = Date.UTC(2025, 0, 1, 9, 0, 0);
export const SEQ_SPACING_MS = 1000;

/** A request opened in batch 1 (seq 1) and closed in batch 4 (seq 70) by a reply (inReplyTo, and the correlation id the service gives it). */
export const FIRST_REQUEST = { correlationId: 'c-first', seq: 1, closedAt: 70 } as const;
/** A request opened at seq 2 and never answered (a handoff in its thread must not close it). */
export const NEVER_ANSWERED = { correlationId: 'c-never', seq: 2, handoffAt: 30 } as const;

export interface ScriptedRequest {
  readonly correlationId: string;
  readonly type: MessageType;
  readonly sender: string;
  readonly seq: number;
  closedAt: number | null;
}

export interface ScriptedConversation {
  readonly messages: Message[];
  readonly requests: ScriptedRequest[];
}

/** Correlation ids of the requests still open once every message up to `seq` is seen. */
export function expectedOpenAfter(conversation: ScriptedConversation, seq: number): Set<string> {
  return new Set(
    conversation.requests.filter((r) => r.seq <= seq && (r.closedAt === null || r.closedAt > seq)).map((r) => r.correlationId),
  );
}

/** mulberry32: a tiny seeded PRNG, so the script is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Draft = Omit<Message, 'id' | 'channel' | 'seq' | 'createdAt'>;

interface Pending {
  readonly due: number;
  readonly make: () => Draft;
  readonly closes?: ScriptedRequest;
}

export function message(seq: number, draft: Partial<Draft> & Pick<Draft, 'type' | 'sender'>): Message {
  return {
    id: `m-${seq}`,
    channel: CHANNEL,
    seq,
    createdAt: new Date(BASE_TIME_MS + seq * SEQ_SPACING_MS),
    content: draft.content ?? `${draft.type.toLowerCase()} #${seq}`,
    topic: draft.topic ?? 'general',
    correlationId: draft.correlationId ?? null,
    inReplyTo: draft.inReplyTo ?? null,
    target: draft.target ?? null,
    metadata: draft.metadata ?? null,
    type: draft.type,
    sender: draft.sender,
  };
}

export function generateConversation(count = 600, seed = 7): ScriptedConversation {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const agents = (seq: number): readonly string[] => (seq >= LATE_FROM_SEQ ? [...AGENTS, LATE_AGENT] : AGENTS);
  const topics = (seq: number): readonly string[] => (seq >= LATE_FROM_SEQ ? [...TOPICS, LATE_TOPIC] : TOPICS);
  const other = (seq: number, not: string) => pick(agents(seq).filter((a) => a !== not));

  const messages: Message[] = [];
  const requests: ScriptedRequest[] = [];
  const pending: Pending[] = [];
  const schedule = (p: Pending) => {
    pending.push(p);
    pending.sort((a, b) => a.due - b.due);
  };

  const first: ScriptedRequest = { correlationId: FIRST_REQUEST.correlationId, type: MessageType.COMMAND, sender: 'alice', seq: 1, closedAt: null };
  const never: ScriptedRequest = { correlationId: NEVER_ANSWERED.correlationId, type: MessageType.QUERY, sender: 'carol', seq: 2, closedAt: null };
  requests.push(first, never);
  const fixed = new Map<number, () => Draft>([
    [1, () => ({ type: MessageType.COMMAND, sender: 'alice', target: 'bob', topic: 'build', correlationId: first.correlationId, content: 'Run the full test suite\non the release branch', inReplyTo: null, metadata: null })],
    [2, () => ({ type: MessageType.QUERY, sender: 'carol', target: 'dave', topic: 'infra', correlationId: never.correlationId, content: 'Who owns the staging cluster?', inReplyTo: null, metadata: null })],
    [NEVER_ANSWERED.handoffAt, () => ({ type: MessageType.HANDOFF, sender: 'dave', target: 'erin', topic: 'infra', correlationId: never.correlationId, content: 'Erin knows staging better', inReplyTo: null, metadata: null })],
    [FIRST_REQUEST.closedAt, () => ({ type: MessageType.DONE, sender: 'bob', target: null, topic: 'build', correlationId: first.correlationId, inReplyTo: 1, content: 'Suite green: 1423 passed', metadata: null })],
  ]);

  for (let seq = 1; seq <= count; seq++) {
    const scripted = fixed.get(seq);
    if (scripted) {
      if (seq === FIRST_REQUEST.closedAt) first.closedAt = seq;
      messages.push(message(seq, scripted()));
      continue;
    }
    if (pending.length > 0 && pending[0].due <= seq) {
      const p = pending.shift() as Pending;
      if (p.closes) p.closes.closedAt = seq;
      messages.push(message(seq, p.make()));
      continue;
    }
    const r = rand();
    const sender = pick(agents(seq));
    const topic = pick(topics(seq));
    if (r < 0.28) {
      const type = rand() < 0.5 ? MessageType.QUERY : MessageType.COMMAND;
      const target = rand() < 0.8 ? other(seq, sender) : null;
      const request: ScriptedRequest = { correlationId: `c-${seq}`, type, sender, seq, closedAt: null };
      requests.push(request);
      messages.push(message(seq, { type, sender, target, topic, correlationId: request.correlationId, content: `${type === MessageType.QUERY ? 'What about' : 'Please handle'} item ${seq}` }));
      const answerer = target ?? other(seq, sender);
      if (rand() < 0.15) {
        const to = other(seq, answerer);
        schedule({ due: seq + 2, make: () => ({ type: MessageType.HANDOFF, sender: answerer, target: to, topic, correlationId: request.correlationId, content: `Passing ${request.correlationId} to ${to}`, inReplyTo: null, metadata: null }) });
      }
      if (type === MessageType.COMMAND && rand() < 0.3) {
        // A RESPONSE to a COMMAND is a reply, not the end of the work (DESIGN §2): the thread stays open.
        schedule({ due: seq + 1, make: () => ({ type: MessageType.RESPONSE, sender: answerer, target: null, topic, correlationId: request.correlationId, content: `On it: ${request.correlationId}`, inReplyTo: null, metadata: null }) });
      }
      if (rand() < 0.7) {
        const closing = closingType(type, rand());
        const byReply = rand() < 0.2;
        schedule({
          due: seq + 3 + Math.floor(rand() * 90),
          closes: request,
          make: () => ({
            type: closing,
            sender: answerer,
            target: null,
            topic,
            // A reply by inReplyTo: posted with it alone, it is stored with the request's correlation id.
            correlationId: request.correlationId,
            inReplyTo: byReply ? request.seq : null,
            content: closing === MessageType.DONE && rand() < 0.3 ? `Decision: ship item ${request.seq}` : `${closing.toLowerCase()} for ${request.correlationId}`,
            metadata: null,
          }),
        });
      }
    } else if (r < 0.45) {
      const content = rand() < 0.1 ? `Decision: freeze ${topic} until Friday` : rand() < 0.2 ? `Working on ${topic}\nstep ${seq}\n\nnearly there` : `Working on ${topic} (${seq})`;
      messages.push(message(seq, { type: MessageType.STATUS, sender, topic, content }));
    } else if (r < 0.55) {
      // Telemetry, sometimes in the thread of an open request: it must not close it.
      const open = requests.filter((q) => q.closedAt === null);
      const correlationId = rand() < 0.5 && open.length > 0 ? pick(open).correlationId : null;
      messages.push(message(seq, { type: MessageType.EVENT, sender: MONITOR, topic: TELEMETRY_TOPIC, correlationId, content: `{"cpu":${Math.floor(rand() * 100)}}` }));
    } else if (r < 0.6) {
      messages.push(message(seq, { type: MessageType.HANDOFF, sender, target: other(seq, sender), topic, content: `Handing over ${topic}` }));
    } else {
      // Chatter: a RESPONSE in no thread (no correlation id, no inReplyTo) closes nothing.
      const long = rand() < 0.05;
      const content = long ? `Long note ${seq}: ${'lorem ipsum '.repeat(300)}` : rand() < 0.05 ? `Decided to retry ${topic}` : `Noted (${seq})`;
      messages.push(message(seq, { type: MessageType.RESPONSE, sender, topic, content }));
    }
  }
  return { messages, requests };
}

/** What closes a request (DESIGN §2): a RESPONSE only answers a QUERY; DONE/DECLINE/FAILURE close any. */
function closingType(request: MessageType, r: number): MessageType {
  if (request === MessageType.QUERY) return r < 0.7 ? MessageType.RESPONSE : MessageType.DECLINE;
  if (r < 0.6) return MessageType.DONE;
  if (r < 0.8) return MessageType.FAILURE;
  return MessageType.DECLINE;
}
