import fc from 'fast-check';
import { findBadText, LONE_SURROGATE_PROBLEM, NUL_PROBLEM } from '../../src/common/json-text';

describe('findBadText', () => {
  it('passes any JSON of well-formed strings without NUL', () => {
    const clean = fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000'));
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v).replace(/\\u0000/g, ''))), (v) => findBadText(v) === null));
    fc.assert(fc.property(fc.dictionary(clean, clean), (v) => findBadText(v) === null));
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

  it('keeps a surrogate pair (an emoji) and stays iterative on deep nesting', () => {
    expect(findBadText({ note: 'ship it 🚀' })).toBeNull();
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findBadText(deep)?.problem).toBe(NUL_PROBLEM);
  });
});
