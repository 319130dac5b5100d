import { planFold, waterFillCap } from '../../src/projection/budget-plan';
import { DIGEST_RESERVE_TOKENS } from '../../src/projection/projection-limits';

describe('planFold', () => {
  it('folds nothing when everything fits, or when every message must be kept', () => {
    expect(planFold([10, 10, 10], 30, 0, false)).toBeNull();
    expect(planFold([500, 500], 300, 2, false)).toBeNull();
  });

  it('folds the fewest oldest messages that leave room for the digest', () => {
    const costs = Array(20).fill(50); // 1000 tokens
    const plan = planFold(costs, 600, 2, false)!;
    // 600 budget, digest target max(64, 150) = 150 → at most 450 verbatim → 9 newest stay.
    expect(plan).toEqual({ foldCount: 11, digestBudget: 150 });
  });

  it('never folds the kept messages: when even they do not fit, all others fold and the digest gets its reserve', () => {
    const plan = planFold([10, 10, 400, 400], 500, 2, false)!;
    expect(plan).toEqual({ foldCount: 2, digestBudget: DIGEST_RESERVE_TOKENS });
  });

  it('always plans a digest when older messages were not read, even if the rest fits', () => {
    expect(planFold([10, 10], 1000, 1, true)).toEqual({ foldCount: 0, digestBudget: 980 });
  });
});

describe('waterFillCap', () => {
  it('is Infinity when all fit, else the largest even cap: small messages stay whole', () => {
    expect(waterFillCap([10, 20], 30)).toBe(Infinity);
    expect(waterFillCap([10, 500, 500], 210)).toBe(100);
    expect(waterFillCap([100, 100], 150)).toBe(75);
  });
});
