import { MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import {
  DECISIONS_KEEP,
  HEURISTIC_KEYS as K,
  HEURISTIC_TEXT_CAP,
  HeuristicMessageSummariser,
  OPEN_THREADS_CAP,
  RECENT_CLOSURES_KEEP,
  STATUS_AGENTS_KEEP,
} from '@qhorus/blocks-channel-summary';
import {
  expectedOpenAfter,
  FIRST_REQUEST,
  generateConversation,
  LATE_AGENT,
  LATE_TOPIC,
  message,
  MONITOR,
  NEVER_ANSWERED,
  TELEMETRY_TOPIC,
} from './conversation-generator';

const BATCH = 20;
const FOREIGN_KEY = 'foreign.owner';

const json = <T>(r: SummaryResult, key: string): T => JSON.parse(r.annotations[key]) as T;
const openIds = (r: SummaryResult) => json<Array<{ correlationId: string }>>(r, K.openThreads).map((t) => t.correlationId);

/** Every report line is a whole line of a known kind: nothing was cut off mid-way. */
const LINE_STARTS = ['Channel: ', 'Period: ', 'Participants (', 'Topics (', 'Open threads', 'Recently closed', 'Latest status', 'Decisions', '- '];
function expectWholeLines(text: string): void {
  for (const line of text.split('\n')) expect(LINE_STARTS.some((p) => line.startsWith(p))).toBe(true);
}

describe('HeuristicMessageSummariser on a scripted 600-message conversation, batches of 20', () => {
  const conversation = generateConversation(600);
  const { messages } = conversation;
  const summariser = new HeuristicMessageSummariser();
  const steps: Array<{ result: SummaryResult; lastSeq: number; end: number }> = [];

  beforeAll(async () => {
    let previous: SummaryResult | null = summaryResult('', { [FOREIGN_KEY]: 'kept' });
    for (let start = 0; start < messages.length; start += BATCH) {
      const batch = messages.slice(start, start + BATCH);
      previous = await summariser.summarise(batch, previous, { preamble: 'Operations channel for the release train' });
      steps.push({ result: previous, lastSeq: batch[batch.length - 1].seq, end: start + batch.length });
    }
  });

  it('is a real multi-agent script (answered, unanswered, handoffs, events)', () => {
    const types = new Set(messages.map((m) => m.type));
    for (const t of Object.values(MessageType)) expect(types).toContain(t);
    const answered = conversation.requests.filter((r) => r.closedAt !== null).length;
    const unanswered = conversation.requests.length - answered;
    expect(answered).toBeGreaterThan(50);
    expect(unanswered).toBeGreaterThan(20);
    expect(steps).toHaveLength(600 / BATCH);
  });

  it('lists exactly the unanswered requests in openThreads at every step', () => {
    for (const { result, lastSeq } of steps) {
      const ids = openIds(result);
      expect(new Set(ids).size).toBe(ids.length);
      expect(new Set(ids)).toEqual(expectedOpenAfter(conversation, lastSeq));
    }
  });

  it('writes openThreads entries in the contract shape {correlationId, type, sender, seq}', () => {
    const last = steps[steps.length - 1].result;
    const bySeq = new Map(conversation.requests.map((r) => [r.seq, r]));
    for (const entry of json<Array<Record<string, unknown>>>(last, K.openThreads)) {
      expect(Object.keys(entry).sort()).toEqual(['correlationId', 'sender', 'seq', 'type']);
      const request = bySeq.get(entry.seq as number)!;
      expect(entry).toEqual({ correlationId: request.correlationId, type: request.type, sender: request.sender, seq: request.seq });
    }
  });

  it('drops a request opened in batch 1 once it is answered (by a reply) in batch 4', () => {
    const batchOf = (seq: number) => Math.ceil(seq / BATCH) - 1;
    expect(batchOf(FIRST_REQUEST.closedAt)).toBe(3);
    for (let b = 0; b < batchOf(FIRST_REQUEST.closedAt); b++) expect(openIds(steps[b].result)).toContain(FIRST_REQUEST.correlationId);
    for (let b = batchOf(FIRST_REQUEST.closedAt); b < steps.length; b++) expect(openIds(steps[b].result)).not.toContain(FIRST_REQUEST.correlationId);
  });

  it('keeps a request open through a handoff, reassigned to the new agent', () => {
    const last = steps[steps.length - 1].result;
    expect(openIds(last)).toContain(NEVER_ANSWERED.correlationId);
    const details = json<Record<string, { target: string }>>(last, K.openThreadDetails);
    expect(details[String(NEVER_ANSWERED.seq)].target).toBe('erin');
  });

  it('keeps the text under its cap, made of whole lines, at every step', () => {
    for (const { result } of steps) {
      expect(result.text.length).toBeLessThanOrEqual(HEURISTIC_TEXT_CAP);
      expectWholeLines(result.text);
    }
    const last = steps[steps.length - 1];
    const open = expectedOpenAfter(conversation, last.lastSeq).size;
    expect(last.result.text).toContain(`Open threads (${open})`);
    expect(last.result.text).toMatch(/… and \d+ more/);
    expect(last.result.text.startsWith('Channel: Operations channel for the release train\n')).toBe(true);
  });

  it('accumulates participants and topics without duplicates; EVENTs are not conversation', () => {
    for (const { result, end } of steps) {
      const seen = messages.slice(0, end).filter((m) => m.type !== MessageType.EVENT);
      const participants = json<string[]>(result, K.participants);
      const topics = json<string[]>(result, K.topics);
      expect(new Set(participants).size).toBe(participants.length);
      expect(new Set(topics).size).toBe(topics.length);
      expect(new Set(participants)).toEqual(new Set(seen.map((m) => m.sender)));
      expect(new Set(topics)).toEqual(new Set(seen.map((m) => m.topic)));
      expect(participants).not.toContain(MONITOR);
      expect(topics).not.toContain(TELEMETRY_TOPIC);
    }
    const last = steps[steps.length - 1].result;
    expect(json<string[]>(last, K.participants)).toContain(LATE_AGENT);
    expect(json<string[]>(last, K.topics)).toContain(LATE_TOPIC);
    const counts = json<Record<string, number>>(last, K.participantCounts);
    for (const name of Object.keys(counts)) {
      expect(counts[name]).toBe(messages.filter((m) => m.sender === name && m.type !== MessageType.EVENT).length);
    }
    const events = messages.filter((m) => m.type === MessageType.EVENT).length;
    expect(last.annotations[K.eventCount]).toBe(String(events));
    expect(last.annotations[K.messageCount]).toBe(String(messages.length - events));
  });

  it('reports the period from the earliest to the latest message (EVENTs included)', () => {
    for (const { result, end } of steps) {
      expect(result.annotations[K.periodStart]).toBe(messages[0].createdAt.toISOString());
      expect(result.annotations[K.periodEnd]).toBe(messages[end - 1].createdAt.toISOString());
    }
  });

  it('keeps a foreign annotation key and writes tier/itemCount for the batch', () => {
    for (const { result } of steps) {
      expect(result.annotations[FOREIGN_KEY]).toBe('kept');
      expect(result.annotations[K.tier]).toBe('grouped');
      expect(result.annotations[K.itemCount]).toBe(String(BATCH));
    }
  });

  it('bounds the recent lists', () => {
    const last = steps[steps.length - 1].result;
    expect(json<unknown[]>(last, K.recentClosures).length).toBeLessThanOrEqual(RECENT_CLOSURES_KEEP);
    expect(json<unknown[]>(last, K.decisions).length).toBeLessThanOrEqual(DECISIONS_KEEP);
    expect(json<unknown[]>(last, K.latestStatus).length).toBeLessThanOrEqual(STATUS_AGENTS_KEEP);
  });

  it('gives the same results when each previous result comes back as a fresh copy (as from the database)', async () => {
    let previous: SummaryResult | null = summaryResult('', { [FOREIGN_KEY]: 'kept' });
    const fresh = new HeuristicMessageSummariser();
    for (let i = 0; i < steps.length; i++) {
      const batch = messages.slice(i * BATCH, (i + 1) * BATCH);
      const copy: SummaryResult | null = previous && JSON.parse(JSON.stringify(previous));
      previous = await fresh.summarise(batch, copy, { preamble: 'Operations channel for the release train' });
      expect(previous).toEqual(steps[i].result);
    }
  });

  it('gives the same state in one batch as in twenty-message steps', async () => {
    const once = await summariser.summarise(messages, summaryResult('', { [FOREIGN_KEY]: 'kept' }), {
      preamble: 'Operations channel for the release train',
    });
    const stepped = steps[steps.length - 1].result;
    const { [K.itemCount]: a, ...onceRest } = once.annotations;
    const { [K.itemCount]: b, ...steppedRest } = stepped.annotations;
    expect(a).toBe(String(messages.length));
    expect(b).toBe(String(BATCH));
    expect(onceRest).toEqual(steppedRest);
    expect(once.text).toBe(stepped.text);
  });
});

describe('HeuristicMessageSummariser thread rules', () => {
  const h = new HeuristicMessageSummariser();

  it('closes by correlation id; an unrelated RESPONSE, an EVENT or an inReplyTo alone closes nothing', async () => {
    const r = await h.summarise([
      message(1, { type: MessageType.QUERY, sender: 'a', target: 'b', correlationId: 'q1' }),
      message(2, { type: MessageType.COMMAND, sender: 'a', target: 'c', correlationId: 'k1' }),
      message(3, { type: MessageType.QUERY, sender: 'b', correlationId: 'q2' }),
      message(4, { type: MessageType.RESPONSE, sender: 'x', content: 'chatter' }),
      message(5, { type: MessageType.EVENT, sender: 'mon', correlationId: 'q2' }),
      message(6, { type: MessageType.RESPONSE, sender: 'b', correlationId: 'q1' }),
      message(7, { type: MessageType.FAILURE, sender: 'c', correlationId: 'k1', inReplyTo: 2, content: 'disk full' }),
      message(8, { type: MessageType.RESPONSE, sender: 'x', inReplyTo: 3, content: 'a reply the service would have given q2' }),
    ]);
    expect(openIds(r)).toEqual(['q2']);
    const closures = json<Array<{ outcome: string; correlationId: string; requestSeq: number; by: string }>>(r, K.recentClosures);
    expect(closures.map((c) => [c.outcome, c.correlationId, c.requestSeq, c.by])).toEqual([
      ['RESPONSE', 'q1', 1, 'b'],
      ['FAILURE', 'k1', 2, 'c'],
    ]);
    expect(r.text).toContain('#7 FAILURE c [general] re #2 COMMAND from a (corr k1): disk full');
  });

  it('records decisions by rule: DONE, RESPONSE to a COMMAND, "Decision:"/"Decided" prefix', async () => {
    const r = await h.summarise([
      message(1, { type: MessageType.COMMAND, sender: 'a', correlationId: 'k1' }),
      message(2, { type: MessageType.QUERY, sender: 'a', correlationId: 'q1' }),
      message(3, { type: MessageType.RESPONSE, sender: 'b', correlationId: 'q1', content: 'answer to a query' }),
      message(4, { type: MessageType.RESPONSE, sender: 'b', correlationId: 'k1', content: 'command outcome' }),
      message(5, { type: MessageType.DONE, sender: 'c', content: 'shipped' }),
      message(6, { type: MessageType.STATUS, sender: 'd', content: 'decision: use node 22' }),
      message(7, { type: MessageType.STATUS, sender: 'd', content: 'Decided to wait' }),
      message(8, { type: MessageType.STATUS, sender: 'd', content: 'Deciding later' }),
      message(9, { type: MessageType.EVENT, sender: 'mon', content: 'Decision: not a conversation' }),
    ]);
    expect(json<Array<{ seq: number }>>(r, K.decisions).map((d) => d.seq)).toEqual([4, 5, 6, 7]);
  });

  it('keeps the latest STATUS per agent', async () => {
    const r = await h.summarise([
      message(1, { type: MessageType.STATUS, sender: 'a', content: 'old' }),
      message(2, { type: MessageType.STATUS, sender: 'b', content: 'b1' }),
      message(3, { type: MessageType.STATUS, sender: 'a', content: 'new' }),
    ]);
    const statuses = json<Array<{ agent: string; text: string }>>(r, K.latestStatus);
    expect(statuses).toEqual([expect.objectContaining({ agent: 'b', text: 'b1' }), expect.objectContaining({ agent: 'a', text: 'new' })]);
    expect(r.text).toContain('a #3 [general]: new');
  });

  it('continues from openThreads written by another writer without details', async () => {
    const previous = summaryResult('older text', {
      [K.openThreads]: JSON.stringify([{ correlationId: 'x', type: 'QUERY', sender: 'a', seq: 4 }]),
    });
    const r = await h.summarise([message(9, { type: MessageType.DONE, sender: 'b', correlationId: 'x', inReplyTo: 4 })], previous);
    expect(openIds(r)).toEqual([]);
    expect(json<Array<{ requester: string }>>(r, K.recentClosures)[0].requester).toBe('a');
  });

  it('treats malformed previous annotations as empty instead of throwing', async () => {
    const previous = summaryResult('x', {
      [K.openThreads]: 'not json',
      [K.openThreadDetails]: '[1,2]',
      [K.participants]: '{"a":1}',
      [K.participantCounts]: '[1]',
      [K.topics]: '["ok", 3, null, "ok"]',
      [K.periodStart]: 'garbage',
      [K.periodEnd]: '',
      [K.messageCount]: '-4',
      [K.recentClosures]: '[null, 3, {"outcome":"DONE"}, {"outcome":"DONE","by":"z","seq":2}]',
      [K.decisions]: '{"no":"list"}',
      [K.latestStatus]: '"x"',
      other: 'stays',
    });
    const r = await h.summarise([message(10, { type: MessageType.STATUS, sender: 'a', content: 'fine' })], previous);
    expect(json<string[]>(r, K.participants)).toEqual(['a']);
    expect(json<string[]>(r, K.topics)).toEqual(['ok', 'general']);
    expect(r.annotations[K.periodStart]).toBe(message(10, { type: MessageType.STATUS, sender: 'a' }).createdAt.toISOString());
    expect(r.annotations[K.messageCount]).toBe('1');
    expect(json<Array<{ by: string }>>(r, K.recentClosures)).toEqual([expect.objectContaining({ by: 'z', seq: 2 })]);
    expect(r.annotations.other).toBe('stays');
  });

  it('summarises an empty first batch as an empty state', async () => {
    const r = await h.summarise([], null);
    expect(r.annotations[K.itemCount]).toBe('0');
    expect(r.annotations[K.periodStart]).toBeUndefined();
    expect(JSON.parse(r.annotations[K.openThreads])).toEqual([]);
    expect(r.text).toContain('Open threads: none');
  });

  it('stays bounded with thousands of long open requests; the oldest age out with a count', async () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      message(i + 1, {
        type: MessageType.QUERY,
        sender: `agent-${i % 300}`,
        target: `agent-${(i + 1) % 300}`,
        topic: `topic-${i % 250}`,
        correlationId: `q-${i + 1}`,
        content: `question ${i + 1}\n${'x'.repeat(5000)}`,
      }),
    );
    const r = await h.summarise(many, null);
    expect(r.text.length).toBeLessThanOrEqual(HEURISTIC_TEXT_CAP);
    expectWholeLines(r.text);
    const open = openIds(r);
    expect(open).toHaveLength(OPEN_THREADS_CAP);
    expect(open[0]).toBe(`q-${3000 - OPEN_THREADS_CAP + 1}`);
    expect(r.annotations[K.openThreadsDropped]).toBe(String(3000 - OPEN_THREADS_CAP));
    expect(r.text).toContain(`Open threads (${OPEN_THREADS_CAP}; ${3000 - OPEN_THREADS_CAP} older no longer tracked)`);
    expect(r.text).toMatch(/Participants \(300\): .*… and \d+ more/);
    // The newest request is shown first.
    expect(r.text).toContain('- #3000 QUERY agent-299→agent-0 [topic-249] (corr q-3000)');
  });

  it('sanity: a 100k-message single batch in one pass (set QHORUS_SANITY_THROUGHPUT=1 to print the rate; not a timed assertion)', async () => {
    const { messages } = generateConversation(100_000, 11);
    const started = process.hrtime.bigint();
    const r = await h.summarise(messages, null);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (process.env.QHORUS_SANITY_THROUGHPUT) {
      console.log(`heuristic: ${messages.length} messages in ${seconds.toFixed(3)} s = ${Math.round(messages.length / seconds)} msg/s`);
    }
    expect(r.text.length).toBeLessThanOrEqual(HEURISTIC_TEXT_CAP);
    expect(r.annotations[K.itemCount]).toBe('100000');
  });
});
