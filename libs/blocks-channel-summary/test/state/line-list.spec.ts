import { Message, MESSAGE_TYPES, MessageType } from '@qhorus/api';
import {
  ChannelStateTracker,
  CLOSURE_ENTRY,
  CLOSURE_OUTCOMES,
  DECISION_ENTRY,
  joinLines,
  LineListText,
  readClosures,
  readDecisions,
  readStatuses,
  renderHeuristicReport,
  STATE_EXCERPT_CAP,
  STATE_KEYS as K,
  STATUS_ENTRY,
} from '@qhorus/blocks-channel-summary';
import fc from 'fast-check';
import { message } from '../conversation-generator';

/** Strings a hand-written matcher of JSON could get wrong: quotes, escapes, controls, separators, astral and lone surrogates. */
const nasty = fc.oneof(
  fc.constantFrom('', 'a', 'b"c', 'd\\', '},\n{"outcome":"DONE"', '\u0000\u001f', 'ü-🧵', '\ud800', '\u2028', ' padded ', 'x'.repeat(STATE_EXCERPT_CAP)),
  fc.string({ maxLength: 12, unit: 'binary' }),
);
/** Seqs up to 15 digits are canonical (see canonical-entry.ts); a longer safe one is read the slow way (tested below). */
const seq = fc.oneof(fc.nat({ max: 1_000 }), fc.constant(10 ** 15 - 1), fc.integer({ min: -5, max: -1 }));
const text = nasty.filter((t) => t.length <= STATE_EXCERPT_CAP);

const closure = fc.record({
  outcome: fc.constantFrom(...CLOSURE_OUTCOMES),
  correlationId: fc.option(nasty, { nil: null }),
  requestType: fc.constantFrom(null, MessageType.QUERY, MessageType.COMMAND, MessageType.HANDOFF),
  requester: fc.option(nasty, { nil: null }),
  requestSeq: fc.option(seq, { nil: null }),
  by: nasty,
  target: fc.option(nasty, { nil: null }),
  topic: nasty,
  seq,
  at: nasty,
  text,
});
const decision = fc.record({ seq, sender: nasty, topic: nasty, at: nasty, text });
const status = fc.record({ agent: nasty, seq, topic: nasty, at: nasty, text });

describe('list keys in the canonical one-per-line form (line-list.ts)', () => {
  it.each([
    ['recentClosures', closure, CLOSURE_ENTRY],
    ['decisions', decision, DECISION_ENTRY],
    ['latestStatus', status, STATUS_ENTRY],
  ] as const)('%s: what JSON.stringify writes reads back entry by entry, and as plain JSON', (_key, record, entry) => {
    fc.assert(
      fc.property(fc.array(record as fc.Arbitrary<object>, { maxLength: 8 }), (records) => {
        const value = joinLines(records.map((r) => JSON.stringify(r)));
        const list = LineListText.parse(value, entry);
        expect(list).not.toBeNull();
        expect(list?.count).toBe(records.length);
        records.forEach((r, i) => expect(list?.entry(i)).toBe(JSON.stringify(r)));
        expect(JSON.parse(value)).toEqual(records);
      }),
      { numRuns: 300 },
    );
  });

  it('reads anything but the canonical form the slow way (null), so a copied entry is always valid JSON', () => {
    const ok = { outcome: 'DONE', correlationId: null, requestType: null, requester: null, requestSeq: null, by: 'z', target: null, topic: 'general', seq: 2, at: '', text: 'hi' };
    const line = JSON.stringify(ok);
    const notCanonical = [
      JSON.stringify([ok]), // compact
      JSON.stringify([ok], null, 2), // pretty-printed
      `[\n${line}\n]\n`, // trailing newline
      `[\n${line},\n\n]`, // empty entry
      `[\n${line.replace('"seq":2', '"seq":2.0')}\n]`, // a number JSON.stringify would not write
      `[\n${line.replace('"seq":2', '"seq":-0')}\n]`,
      `[\n${line.replace('"seq":2', '"seq":12345678901234567')}\n]`, // not a safe integer
      `[\n${line.replace('"text":"hi"', `"text":"${'y'.repeat(STATE_EXCERPT_CAP + 1)}"`)}\n]`, // to be excerpted
      `[\n${line.replace('"outcome":"DONE"', '"outcome":"NOPE"')}\n]`,
      `[\n${line.replace('"requestType":null', '"requestType":"STATUS"')}\n]`,
      `[\n${line.replace('"by":"z",', '')}\n]`, // a field missing
      `[\n${line.replace('}', ',"extra":1}')}\n]`,
      `[\n${line.replace('"target":null,"topic":"general"', '"topic":"general","target":null')}\n]`, // key order
      `[\n{"outcome":garbage}\n]`,
      `[\n${line.slice(0, -1)}\n]`, // cut short
      `[\n${line.replace('"hi"', '"h\ni"')}\n]`, // a raw newline in a string
    ];
    for (const value of notCanonical) expect(LineListText.parse(value, CLOSURE_ENTRY)).toBeNull();
    expect(LineListText.parse(`[\n${line},\n${line}\n]`, CLOSURE_ENTRY)?.count).toBe(2);
    expect(LineListText.parse('[]', CLOSURE_ENTRY)?.count).toBe(0);
  });

  it('decodes a foreign or malformed value as the JSON reader always did: valid entries kept, the rest absent, never a throw', () => {
    const ok = { seq: 3, sender: 'ann', topic: 'general', at: '', text: 'go' };
    const foreign = JSON.stringify([ok, { seq: 'x' }, null, { ...ok, seq: 4, text: 'z'.repeat(150) }], null, 1);
    expect(JSON.parse(readDecisions(foreign).seal((d) => d).encode())).toEqual([ok, { ...ok, seq: 4, text: 'z'.repeat(150) }]);
    const longSeq = joinLines([JSON.stringify({ ...ok, seq: Number.MAX_SAFE_INTEGER })]); // safe, but past the canonical digits
    expect(LineListText.parse(longSeq, DECISION_ENTRY)).toBeNull();
    expect(JSON.parse(readDecisions(longSeq).seal((d) => d).encode())).toEqual([{ ...ok, seq: Number.MAX_SAFE_INTEGER }]);
    for (const bad of [undefined, '', 'not json', '{"no":"list"}', '[\n{"seq":3}\n', '[\n{"outcome":garbage}\n]']) {
      expect(JSON.parse(readDecisions(bad).seal((d) => d).encode())).toEqual([]);
      expect(JSON.parse(readClosures(bad).seal((c) => c).encode())).toEqual([]);
    }
  });

  it('latestStatus: an agent listed twice (only another writer does that) keeps its highest seq, as before', () => {
    const entry = (agent: string, s: number) => JSON.stringify({ agent, seq: s, topic: 'general', at: '', text: `#${s}` });
    const twice = joinLines([entry('ann', 5), entry('b"en', 6), entry('ann', 7), entry('ann', 4)]);
    expect(LineListText.parse(twice, STATUS_ENTRY)).not.toBeNull(); // canonical entries…
    const read = JSON.parse(readStatuses(twice).seal((agent, r) => ({ agent, ...r, at: String(r.at) })).encode());
    expect(read.map((s: { agent: string; seq: number }) => [s.agent, s.seq])).toEqual([
      ['b"en', 6],
      ['ann', 7],
    ]); // …but read whole
  });
});

type Draft = { type: MessageType; sender: string; target: string | null; correlationId: string | null; content: string };

const AGENTS = ['ann', 'b"en', 'c\\id', 'dot', 'eve'] as const;
const draft: fc.Arbitrary<Draft> = fc.record({
  type: fc.constantFrom(...MESSAGE_TYPES),
  sender: fc.constantFrom(...AGENTS),
  target: fc.option(fc.constantFrom(...AGENTS), { nil: null }),
  correlationId: fc.option(fc.constantFrom('t1', 't"2', 't3', 't4'), { nil: null, freq: 3 }),
  content: fc.oneof(fc.constantFrom('ok', 'Decision: go', 'decided', '},\n{', ' padded ', 'x'.repeat(150)), fc.string({ maxLength: 30 })),
});

/** The three lists in the compact encoding an earlier version wrote (decoded whole, by JSON.parse). */
function compact(annotations: Record<string, string>): Record<string, string> {
  const copy = { ...annotations };
  for (const key of [K.recentClosures, K.decisions, K.latestStatus]) if (copy[key] !== undefined) copy[key] = JSON.stringify(JSON.parse(copy[key]));
  return copy;
}

const parsed = (keys: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, k === K.periodStart || k === K.periodEnd ? v : JSON.parse(v)]));

describe('the tracker over the list keys in either form', () => {
  it('reaches the same state and report from the one-per-line text as from compact JSON, batch after batch', () => {
    fc.assert(
      fc.property(fc.array(draft, { minLength: 1, maxLength: 150 }), fc.integer({ min: 1, max: 25 }), (drafts, size) => {
        const messages: Message[] = drafts.map((d, i) => message(i + 1, d));
        let stored: Record<string, string> = {};
        for (let i = 0; i < messages.length; i += size) {
          const batch = messages.slice(i, i + size);
          const lazy = new ChannelStateTracker().track(JSON.parse(JSON.stringify(stored)), batch);
          const whole = new ChannelStateTracker().track(compact(stored), batch);
          expect(parsed(lazy.keys)).toEqual(parsed(whole.keys));
          expect(renderHeuristicReport(lazy.snapshot, 'c')).toBe(renderHeuristicReport(whole.snapshot, 'c'));
          stored = { ...stored, ...lazy.keys };
          expect(LineListText.parse(stored[K.recentClosures], CLOSURE_ENTRY)).not.toBeNull();
          expect(LineListText.parse(stored[K.decisions], DECISION_ENTRY)).not.toBeNull();
          expect(LineListText.parse(stored[K.latestStatus], STATUS_ENTRY)).not.toBeNull();
        }
      }),
      { numRuns: 200 },
    );
  });
});
