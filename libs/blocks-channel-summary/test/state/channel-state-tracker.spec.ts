import { applyThreadRule, Message, MESSAGE_TYPES, MessageType, REQUEST_TYPES, ThreadState } from '@qhorus/api';
import { ChannelStateTracker, NAME_LIST_CAP, OPEN_THREADS_CAP, STATE_KEYS as K } from '@qhorus/blocks-channel-summary';
import fc from 'fast-check';
import { expectedOpenAfter, generateConversation, message } from '../conversation-generator';

const AGENTS = ['ann', 'ben', 'cid', 'dot'] as const;
const THREAD_IDS = ['t1', 't2', 't3', 't4', 't5', 't6'] as const;
const CONTENTS = ['ok', 'Decision: go ahead', 'decided to wait', 'line one\nline two', 'x'.repeat(150), ''] as const;
/** Conversations stay far below the ageing caps (see the property below). */
const MAX_MESSAGES = 120;

type Draft = {
  type: MessageType;
  sender: string;
  target: string | null;
  correlationId: string | null;
  replyBack: number | null;
  topic: string;
  content: string;
  dtMs: number;
};

const draft = (withReplies: boolean): fc.Arbitrary<Draft> =>
  fc.record({
    type: fc.constantFrom(...MESSAGE_TYPES),
    sender: fc.constantFrom(...AGENTS),
    target: fc.option(fc.constantFrom(...AGENTS), { nil: null }),
    correlationId: fc.option(fc.constantFrom(...THREAD_IDS), { nil: null, freq: 4 }),
    replyBack: withReplies ? fc.option(fc.nat({ max: 20 }), { nil: null }) : fc.constant(null),
    topic: fc.constantFrom('general', 'build', 'ops'),
    content: fc.oneof(fc.constantFrom(...CONTENTS), fc.string({ maxLength: 40 })),
    // Not monotonic on purpose: the period is the min/max of what was seen.
    dtMs: fc.integer({ min: -5_000, max: 60_000 }),
  });

function toMessages(drafts: readonly Draft[]): Message[] {
  let at = 0;
  return drafts.map((d, i) => {
    const seq = i + 1;
    at += d.dtMs;
    const inReplyTo = d.replyBack !== null && seq - 1 - d.replyBack >= 1 ? seq - 1 - d.replyBack : null;
    const m = message(seq, { type: d.type, sender: d.sender, target: d.target, correlationId: d.correlationId, inReplyTo, topic: d.topic, content: d.content });
    return { ...m, createdAt: new Date(m.createdAt.getTime() + at) };
  });
}

/** Cut points (indexes into the conversation) → consecutive non-empty batches. */
function split(messages: readonly Message[], cuts: readonly number[]): Message[][] {
  const points = [...new Set(cuts.map((c) => c % (messages.length + 1)))].filter((c) => c > 0 && c < messages.length).sort((a, b) => a - b);
  const batches: Message[][] = [];
  let from = 0;
  for (const p of [...points, messages.length]) {
    batches.push(messages.slice(from, p));
    from = p;
  }
  return batches;
}

/**
 * Batch by batch, as the summary job does: each step starts from the stored annotations (a copy,
 * as read back from the database, so nothing is carried in memory between steps).
 */
function trackInBatches(batches: readonly Message[][], foreign: Record<string, string> = {}): Record<string, string> {
  let annotations: Record<string, string> = { ...foreign };
  for (const batch of batches) {
    const tracked = new ChannelStateTracker().track(JSON.parse(JSON.stringify(annotations)), batch);
    annotations = { ...annotations, ...tracked.keys };
  }
  return annotations;
}

const openIds = (keys: Readonly<Record<string, string>>) => (JSON.parse(keys[K.openThreads]) as { correlationId: string }[]).map((t) => t.correlationId);

describe('ChannelStateTracker', () => {
  /*
   * The fold is associative over batches: state after the whole conversation in one batch equals
   * the state after it split into batches anywhere. Aside: the ageing rules (open threads past
   * OPEN_THREADS_CAP and names past NAME_LIST_CAP are dropped when a batch ends, so a later batch
   * cannot close or count them); these conversations stay below both caps, so they never apply.
   * The other bounds (newest closures, decisions and statuses kept) keep the same newest entries
   * whatever the batching, and are covered.
   */
  it('any typed conversation split into batches at random gives the same state as in one batch', () => {
    expect(MAX_MESSAGES).toBeLessThan(Math.min(OPEN_THREADS_CAP, NAME_LIST_CAP));
    fc.assert(
      fc.property(fc.array(draft(true), { minLength: 1, maxLength: MAX_MESSAGES }), fc.array(fc.nat(), { maxLength: 30 }), (drafts, cuts) => {
        const messages = toMessages(drafts);
        const whole = new ChannelStateTracker().track(null, messages).keys;
        const batched = trackInBatches(split(messages, cuts));
        expect(batched).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('the scripted 600-message conversation gives the same state in batches of any size as in one', () => {
    const { messages } = generateConversation(600);
    const whole = new ChannelStateTracker().track(null, messages).keys;
    for (const size of [1, 7, 20, 599]) {
      const batches: Message[][] = [];
      for (let i = 0; i < messages.length; i += size) batches.push(messages.slice(i, i + size));
      expect(trackInBatches(batches)).toEqual(whole);
    }
  });

  it('open threads are exactly those applyThreadRule leaves open, with the opener and the owner (DESIGN §2)', () => {
    fc.assert(
      fc.property(fc.array(draft(false), { minLength: 1, maxLength: MAX_MESSAGES }), (drafts) => {
        // As the service does: a request always carries a correlation id (one is generated if absent).
        const messages = toMessages(drafts.map((d, i) => (REQUEST_TYPES.has(d.type) && d.correlationId === null ? { ...d, correlationId: `gen-${i}` } : d)));
        // The reference: the shared rule, replayed per correlation id, remembering who (re)opened.
        const threads = new Map<string, { state: ThreadState; opener: Message }>();
        for (const m of messages) {
          if (m.type === MessageType.EVENT || m.correlationId === null) continue;
          const current = threads.get(m.correlationId);
          const next = applyThreadRule(current?.state ?? null, m);
          if (next === null || next === current?.state) continue;
          const reopened = current === undefined || current.state.status !== 'open';
          threads.set(m.correlationId, { state: next, opener: reopened ? m : current.opener });
        }
        const expected = [...threads.entries()]
          .filter(([, t]) => t.state.status === 'open')
          .map(([correlationId, t]) => ({ correlationId, type: t.state.type, sender: t.opener.sender, seq: t.opener.seq, owner: t.state.owner }))
          .sort((a, b) => a.seq - b.seq);

        const keys = new ChannelStateTracker().track(null, messages).keys;
        const details = JSON.parse(keys[K.openThreadDetails]) as Record<string, { target: string | null }>;
        const actual = (JSON.parse(keys[K.openThreads]) as { correlationId: string; type: string; sender: string; seq: number }[]).map((t) => ({
          ...t,
          owner: details[String(t.seq)].target,
        }));
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('follows the scripted ground truth at every batch of 20', () => {
    const conversation = generateConversation(600);
    let annotations: Record<string, string> = {};
    for (let i = 0; i < conversation.messages.length; i += 20) {
      const batch = conversation.messages.slice(i, i + 20);
      annotations = { ...annotations, ...new ChannelStateTracker().track(annotations, batch).keys };
      expect(new Set(openIds(annotations))).toEqual(expectedOpenAfter(conversation, batch[batch.length - 1].seq));
    }
  });

  describe('thread rules, one by one', () => {
    const track = (...drafts: Array<Parameters<typeof message>[1]>) =>
      new ChannelStateTracker().track(null, drafts.map((d, i) => message(i + 1, d))).keys;
    const detailOf = (keys: Record<string, string>, seq: number) => (JSON.parse(keys[K.openThreadDetails]) as Record<string, { target: string | null }>)[String(seq)];

    it('a RESPONSE closes a QUERY’s thread but not a COMMAND’s; DONE, DECLINE and FAILURE close any', () => {
      const keys = track(
        { type: MessageType.QUERY, sender: 'ann', correlationId: 'q' },
        { type: MessageType.COMMAND, sender: 'ann', correlationId: 'c' },
        { type: MessageType.COMMAND, sender: 'ann', correlationId: 'd' },
        { type: MessageType.QUERY, sender: 'ann', correlationId: 'f' },
        { type: MessageType.RESPONSE, sender: 'ben', correlationId: 'q' },
        { type: MessageType.RESPONSE, sender: 'ben', correlationId: 'c' },
        { type: MessageType.DECLINE, sender: 'ben', correlationId: 'd' },
        { type: MessageType.FAILURE, sender: 'ben', correlationId: 'f' },
      );
      expect(openIds(keys)).toEqual(['c']);
      const more = new ChannelStateTracker().track(keys, [message(9, { type: MessageType.DONE, sender: 'ben', correlationId: 'c' })]).keys;
      expect(openIds(more)).toEqual([]);
    });

    it('a HANDOFF keeps the thread open, now owed by its target', () => {
      const keys = track(
        { type: MessageType.COMMAND, sender: 'ann', target: 'ben', correlationId: 'c' },
        { type: MessageType.HANDOFF, sender: 'ben', target: 'cid', correlationId: 'c' },
      );
      expect(openIds(keys)).toEqual(['c']);
      expect(detailOf(keys, 1).target).toBe('cid');
      expect((JSON.parse(keys[K.recentClosures]) as { outcome: string }[]).map((c) => c.outcome)).toEqual(['HANDOFF']);
    });

    it('QUERY, COMMAND and HANDOFF reopen a closed thread; anything else is a follow-up that leaves it closed', () => {
      const closed = [
        { type: MessageType.QUERY, sender: 'ann', correlationId: 'q' },
        { type: MessageType.RESPONSE, sender: 'ben', correlationId: 'q' },
      ];
      for (const type of [MessageType.STATUS, MessageType.RESPONSE, MessageType.DONE, MessageType.DECLINE, MessageType.FAILURE, MessageType.EVENT]) {
        expect(openIds(track(...closed, { type, sender: 'cid', correlationId: 'q' }))).toEqual([]);
      }
      for (const type of [MessageType.QUERY, MessageType.COMMAND, MessageType.HANDOFF]) {
        const keys = track(...closed, { type, sender: 'cid', target: 'dot', correlationId: 'q' });
        expect(JSON.parse(keys[K.openThreads])).toEqual([{ correlationId: 'q', type, sender: 'cid', seq: 3 }]);
        expect(detailOf(keys, 3).target).toBe('dot');
      }
    });

    it('a thread is its correlation id, as in the thread index: inReplyTo alone joins none (the service gives such a reply its request\'s id)', () => {
      const alone = track({ type: MessageType.QUERY, sender: 'ann', correlationId: 'q' }, { type: MessageType.RESPONSE, sender: 'ben', inReplyTo: 1 });
      expect(openIds(alone)).toEqual(['q']);
      const asStored = track({ type: MessageType.QUERY, sender: 'ann', correlationId: 'q' }, { type: MessageType.RESPONSE, sender: 'ben', inReplyTo: 1, correlationId: 'q' });
      expect(openIds(asStored)).toEqual([]);
    });

    it('telemetry never opens, closes or counts as conversation', () => {
      const keys = track(
        { type: MessageType.QUERY, sender: 'ann', correlationId: 'q' },
        { type: MessageType.EVENT, sender: 'monitor', correlationId: 'q' },
      );
      expect(openIds(keys)).toEqual(['q']);
      expect(JSON.parse(keys[K.participants])).toEqual(['ann']);
      expect(keys[K.eventCount]).toBe('1');
    });
  });
});
