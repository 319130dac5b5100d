import fc from 'fast-check';
import { findBadText, LONE_SURROGATE_PROBLEM, NUL_PROBLEM, RESERVED_KEY_PROBLEM } from '../../src/common/json-text';

describe('findBadText', () => {
  /** Every key of `v`, at any depth (to leave out values with a reserved key, tested on their own below). */
  const keysOf = (v: unknown): string[] => (v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, c]) => [k, ...keysOf(c)]) : []);
  const noReservedKey = (v: unknown) => !keysOf(v).some((k) => Object.hasOwn(Object.prototype, k));

  it('passes any JSON of well-formed strings without NUL (and without keys such as toString)', () => {
    const clean = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000'));
    const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v).replace(/\\u0000/g, '')));
    fc.assert(fc.property(json.filter(noReservedKey), (v) => findBadText(v) === null));
    fc.assert(fc.property(fc.dictionary(clean, clean).filter(noReservedKey), (v) => findBadText(v) === null));
  });

  it('names the path of a NUL or a lone surrogate wherever it is put, a key naming its object', () => {
    const path = fc.array(fc.oneof(fc.constantFrom('a', 'b.c'), fc.nat({ max: 3 })), { maxLength: 5 });
    fc.assert(
      fc.property(path, fc.constantFrom('x\u0000y', '\ud800', 'ok\udfff'), fc.boolean(), (steps, bad, asKey) => {
        // Build the value inside out: arrays for numeric steps (padded), objects otherwise.
        let value: unknown = asKey ? { [bad]: 1 } : bad;
        for (let i = steps.length - 1; i >= 0; i--) {
          const step = steps[i];
          value = typeof step === 'number' ? [...Array(step).fill('fine'), value] : { other: 'fine', [step]: value };
        }
        const found = findBadText(value, 'root');
        const field = ['root', ...steps.map(String)].join('.');
        const problem = bad.includes('\u0000') ? NUL_PROBLEM : LONE_SURROGATE_PROBLEM;
        expect(found).toEqual({ field, problem: asKey ? `has a key that ${problem}` : problem });
      }),
    );
  });

  it('names a key that Object.prototype has (it would be dropped by the DTO mapping), at any depth, and nothing else', () => {
    for (const key of Object.getOwnPropertyNames(Object.prototype)) {
      expect(findBadText(JSON.parse(`{"content":"x","metadata":{"note":{${JSON.stringify(key)}:1}}}`))).toEqual({ field: `metadata.note.${key}`, problem: RESERVED_KEY_PROBLEM });
    }
    expect(findBadText({ constructorName: 1, to_string: 2, prototype: 3, length: 4 })).toBeNull();
  });

  it('keeps a surrogate pair (an emoji) and stays iterative on deep nesting', () => {
    expect(findBadText({ note: 'ship it 🚀' })).toBeNull();
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findBadText(deep)?.problem).toBe(NUL_PROBLEM);
  });
});
