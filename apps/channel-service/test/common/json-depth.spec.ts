import { exceedsJsonDepth } from '../../src/common/json-depth';

const nested = (levels: number): unknown => JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels));

describe('exceedsJsonDepth', () => {
  it('counts containers: scalars are depth 0, {} is 1', () => {
    expect(exceedsJsonDepth('text', 0)).toBe(false);
    expect(exceedsJsonDepth({}, 0)).toBe(true);
    expect(exceedsJsonDepth({}, 1)).toBe(false);
    expect(exceedsJsonDepth({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(exceedsJsonDepth({ a: [1, { b: 2 }] }, 3)).toBe(false);
  });

  it('finds the one deep branch among shallow ones', () => {
    expect(exceedsJsonDepth({ x: 1, y: [[]], z: { deep: nested(10) } }, 8)).toBe(true);
    expect(exceedsJsonDepth({ x: 1, y: [[]], z: { deep: nested(10) } }, 12)).toBe(false);
  });

  it('handles nesting far beyond the call stack without recursion', () => {
    expect(exceedsJsonDepth(nested(200_000), 32)).toBe(true);
    expect(exceedsJsonDepth(JSON.parse('['.repeat(200_000) + ']'.repeat(200_000)), 32)).toBe(true);
  });
});
