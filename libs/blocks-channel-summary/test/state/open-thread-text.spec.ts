import { Message, MESSAGE_TYPES, MessageType } from '@qhorus/api';
import {
  ChannelStateTracker,
  HeuristicMessageSummariser,
  OPEN_THREADS_CAP,
  OpenThreadText,
  renderHeuristicReport,
  STATE_KEYS as K,
} from '@qhorus/blocks-channel-summary';
import fc from 'fast-check';
import { message } from '../conversation-generator';

/** Ids and names that would confuse a text search that is not exact: quotes, separators, escapes. */
const NASTY = ['t1', 't"2', '","type":"QUERY"', '},\n{"correlationId":"t1"', 't\\', '\\"', 'ü-🧵', ',"seq":3}'] as const;
const AGENTS = ['ann', 'b"en', 'c\\id'] as const;

type Draft = { type: MessageType; sender: string; target: string | null; correlationId: string | null; replyBack: number | null; content: string };

const draft: fc.Arbitrary<Draft> = fc.record({
  type: fc.constantFrom(...MESSAGE_TYPES),
  sender: fc.constantFrom(...AGENTS),
  target: fc.option(fc.constantFrom(...AGENTS), { nil: null }),
  correlationId: fc.option(fc.constantFrom(...NASTY), { nil: null, freq: 4 }),
  replyBack: fc.option(fc.nat({ max: 12 }), { nil: null }),
  content: fc.oneof(fc.constantFrom('ok', 'Decision: go', '},\n{', '"quoted"', 'x'.repeat(150)), fc.string({ maxLength: 30 })),
});

function toMessages(drafts: readonly Draft[]): Message[] {
  return drafts.map((d, i) => {
    const seq = i + 1;
    const inReplyTo = d.replyBack !== null && seq - 1 - d.replyBack >= 1 ? seq - 1 - d.replyBack : null;
    return message(seq, { type: d.type, sender: d.sender, target: d.target, correlationId: d.correlationId, inReplyTo, content: d.content });
  });
}

/** The same lists in the compact encoding an earlier version wrote: decoded whole, by JSON.parse. */
function compact(annotations: Record<string, string>): Record<string, string> {
  const copy = { ...annotations };
  for (const key of [K.openThreads, K.openThreadDetails]) if (copy[key] !== undefined) copy[key] = JSON.stringify(JSON.parse(copy[key]));
  return copy;
}

const parsed = (keys: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, k === K.periodStart || k === K.periodEnd ? v : JSON.parse(v)]));

/**
 * Batch by batch from stored annotations, both ways: the lazy read of the one-per-line text and
 * the whole decode of the same lists in compact JSON must give the same state and the same report.
 */
function expectSameBothWays(batches: readonly Message[][]): Record<string, string> {
  let lazy: Record<string, string> = {};
  for (const batch of batches) {
    const fromText = new ChannelStateTracker().track(JSON.parse(JSON.stringify(lazy)), batch);
    const fromJson = new ChannelStateTracker().track(compact(lazy), batch);
    expect(parsed(fromText.keys)).toEqual(parsed(fromJson.keys));
    expect(renderHeuristicReport(fromText.snapshot, 'c')).toBe(renderHeuristicReport(fromJson.snapshot, 'c'));
    expect([...fromText.snapshot.openThreads]).toEqual([...fromJson.snapshot.openThreads].map((v) => ({ ...v, threadJson: expect.any(String), detailJson: expect.any(String) })));
    lazy = { ...lazy, ...fromText.keys };
    expect(OpenThreadText.parse(lazy[K.openThreads], lazy[K.openThreadDetails])).not.toBeNull();
  }
  return lazy;
}

function batchesOf(messages: readonly Message[], size: number): Message[][] {
  const batches: Message[][] = [];
  for (let i = 0; i < messages.length; i += size) batches.push(messages.slice(i, i + size));
  return batches;
}

describe('open threads in the one-per-line text (read lazily)', () => {
  it('decode to the same state and report as the whole JSON, for any conversation and hostile ids', () => {
    fc.assert(
      fc.property(fc.array(draft, { minLength: 1, maxLength: 120 }), fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 40, max: 120 })), (drafts, size) => {
        expectSameBothWays(batchesOf(toMessages(drafts), size));
      }),
      { numRuns: 300 },
    );
  });

  it('past the cap, drop the same oldest threads either way and keep counting them', () => {
    const messages: Message[] = [];
    const open: number[] = []; // seqs of the open requests, oldest first (the cap's model)
    for (let seq = 1; seq <= OPEN_THREADS_CAP * 5; seq++) {
      let m: Message;
      if (seq % 5 === 0 && open.length > 0) {
        m = message(seq, { type: MessageType.DONE, sender: 'ben', correlationId: `q-${open.shift()}` }); // the oldest: where the cap drops
      } else if (seq % 7 === 0 && open.length > 0) {
        const seqOfNewest = open.pop();
        m = message(seq, { type: MessageType.RESPONSE, sender: 'ben', correlationId: `q-${seqOfNewest}`, inReplyTo: seqOfNewest }); // the newest, by a reply
      } else if (seq % 13 === 0 && open.length > 10) {
        const seqOfOld = open.splice(10, 1)[0];
        m = message(seq, { type: MessageType.RESPONSE, sender: 'ben', correlationId: `q-${seqOfOld}`, inReplyTo: seqOfOld }); // an old one, by a reply
      } else if (seq % 11 === 0 && open.length > 0) {
        m = message(seq, { type: MessageType.HANDOFF, sender: 'ann', target: 'cid', correlationId: `q-${open[Math.floor(open.length / 2)]}` });
      } else {
        m = message(seq, { type: MessageType.QUERY, sender: 'ann', correlationId: `q-${seq}` });
        open.push(seq);
        if (open.length > OPEN_THREADS_CAP) open.shift();
      }
      messages.push(m);
    }
    // Batches of 20 search the text; batches of 150 index it after INDEX_AFTER_SEARCHES lookups.
    for (const size of [20, 150]) {
      const last = expectSameBothWays(batchesOf(messages, size));
      expect(Number(last[K.openThreadsDropped])).toBeGreaterThan(0);
      expect(JSON.parse(last[K.openThreads])).toHaveLength(OPEN_THREADS_CAP);
    }
  });

  it('is plain JSON, one entry per line, the i-th detail under the i-th thread', () => {
    const msgs = [message(1, { type: MessageType.QUERY, sender: 'ann', correlationId: 'a' }), message(2, { type: MessageType.COMMAND, sender: 'ben', correlationId: 'b' })];
    const keys = new ChannelStateTracker().track(null, msgs).keys;
    expect(keys[K.openThreads]).toBe('[\n{"correlationId":"a","type":"QUERY","sender":"ann","seq":1},\n{"correlationId":"b","type":"COMMAND","sender":"ben","seq":2}\n]');
    expect(keys[K.openThreadDetails].split('\n').slice(1, -1).map((line) => line.slice(0, 4))).toEqual(['"1":', '"2":']);
    expect(Object.keys(JSON.parse(keys[K.openThreadDetails]))).toEqual(['1', '2']);
    expect(new ChannelStateTracker().track(null, []).keys[K.openThreads]).toBe('[]');
  });

  it('reads another form (pretty-printed, mismatched details) the slow way, and a broken entry as unreadable rather than failing', async () => {
    const entries = [{ correlationId: 'x', type: 'QUERY', sender: 'a', seq: 4 }];
    expect(OpenThreadText.parse(JSON.stringify(entries, null, 2), '{}')).toBeNull();
    expect(OpenThreadText.parse('[\n{"correlationId":"x","type":"QUERY","sender":"a","seq":4}\n]', '{}')).toBeNull();
    const broken = {
      [K.openThreads]: '[\n{"correlationId":"x","type":"QUERY","sender":"a","seq":4},\n{"correlationId":"y","type":"NOPE"}\n]',
      [K.openThreadDetails]: '{\n"4":{"target":null,"topic":"general","at":"","text":"hi"},\n"5":{}\n}',
    };
    const result = await new HeuristicMessageSummariser().summarise([message(9, { type: MessageType.RESPONSE, sender: 'b', correlationId: 'x' })], { text: '', annotations: broken });
    expect(JSON.parse(result.annotations[K.openThreads])).toEqual([{ correlationId: 'y', type: 'NOPE' }]);
    expect(result.text).toContain('(unreadable entry)');
  });
});
