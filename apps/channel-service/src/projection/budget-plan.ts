import { DIGEST_MAX_TOKENS, DIGEST_RESERVE_TOKENS, DIGEST_SHARE } from './projection-limits';

export interface FoldPlan {
  /** How many of the oldest messages fold into the digest. */
  foldCount: number;
  /** What the digest may cost (it always holds at least its marker). */
  digestBudget: number;
}

/**
 * Decides how many of the oldest messages fold into the digest so the rest fits `budget`
 * (what the summary block left). Returns null when no digest is needed. The newest `keep`
 * messages never fold; when even they do not fit beside a digest marker, everything else folds
 * and the caller truncates the kept ones (see `waterFillCap`).
 */
export function planFold(costs: readonly number[], budget: number, keep: number, digestRequired: boolean): FoldPlan | null {
  const total = costs.reduce((a, b) => a + b, 0);
  const foldable = Math.max(0, costs.length - keep);
  if (!digestRequired && (total <= budget || foldable === 0)) return null;
  const target = Math.min(DIGEST_MAX_TOKENS, Math.max(DIGEST_RESERVE_TOKENS, Math.floor(budget * DIGEST_SHARE)));
  let suffix = total;
  for (let k = 0; k <= foldable; k++) {
    if (k > 0) suffix -= costs[k - 1];
    if ((k > 0 || digestRequired) && suffix <= budget - target) return { foldCount: k, digestBudget: budget - suffix };
  }
  return { foldCount: foldable, digestBudget: Math.max(DIGEST_RESERVE_TOKENS, budget - suffix) };
}

/**
 * The largest per-message cap `t` with Σ min(cost, t) ≤ budget (Infinity when all fit): small
 * messages stay whole and only the largest are cut, evenly.
 */
export function waterFillCap(costs: readonly number[], budget: number): number {
  const total = costs.reduce((a, b) => a + b, 0);
  if (total <= budget) return Infinity;
  let fits = 0;
  let fails = Math.max(...costs);
  while (fails - fits > 1) {
    const mid = (fits + fails) >>> 1;
    const used = costs.reduce((sum, c) => sum + Math.min(c, mid), 0);
    if (used <= budget) fits = mid;
    else fails = mid;
  }
  return fits;
}
