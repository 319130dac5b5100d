import { estimateTokens } from '@qhorus/blocks-summarisation';
import { digestMarker } from '../../src/projection/digest';
import { truncationMarker } from '../../src/projection/project-context';
import { DIGEST_RESERVE_TOKENS, MIN_CONTEXT_MAX_TOKENS, MIN_TOKENS_PER_KEPT_MESSAGE, UNIT_OVERHEAD_TOKENS } from '../../src/projection/projection-limits';
import { renderSummaryBlock, summaryCap } from '../../src/projection/summary-block';
import { fitText, unitCost } from '../../src/projection/token-cost';

const HUGE_SEQ = 9_007_199_254_740_991;

describe('fitText', () => {
  it('returns the text whole when it fits', () => {
    expect(fitText('head ', 'body', ' [cut]', 100)).toBe('head body');
  });

  it('cuts the body to the longest start that fits with the marker', () => {
    const out = fitText('', 'alpha beta gamma delta epsilon zeta eta theta', ' [cut]', 8);
    expect(out).toMatch(/^alpha .* \[cut\]$/);
    expect(unitCost(out)).toBeLessThanOrEqual(8);
    expect(unitCost(fitText('', 'alpha beta gamma delta epsilon zeta eta theta', ' [cut]', 9))).toBeGreaterThan(unitCost(out) - 1);
  });

  it('never splits a surrogate pair', () => {
    const out = fitText('', '😀'.repeat(200), ' [cut]', 20);
    expect(out).toMatch(/^(😀)+ \[cut\]$/u);
  });
});

describe('the markers fit the budgets reserved for them, whatever the seq', () => {
  it('digest marker ≤ DIGEST_RESERVE_TOKENS', () => {
    expect(unitCost(digestMarker(HUGE_SEQ - 1, HUGE_SEQ))).toBeLessThanOrEqual(DIGEST_RESERVE_TOKENS);
  });
  it('truncation marker leaves room in MIN_TOKENS_PER_KEPT_MESSAGE', () => {
    expect(estimateTokens(truncationMarker(HUGE_SEQ)) + UNIT_OVERHEAD_TOKENS).toBeLessThan(MIN_TOKENS_PER_KEPT_MESSAGE);
  });
  it('summary marker fits the smallest summary cap', () => {
    const block = renderSummaryBlock({ text: 'x '.repeat(10_000), version: 99_999, coversThroughSeq: HUGE_SEQ }, MIN_CONTEXT_MAX_TOKENS);
    expect(block).toMatch(/^\[Summary of messages 1–9007199254740991 \(v99999\)/);
    expect(unitCost(block)).toBeLessThanOrEqual(summaryCap(MIN_CONTEXT_MAX_TOKENS));
  });
});
