/**
 * Validates the size thresholds shared by the tiered summariser and the observation renderer:
 * `size ≤ t1` is the small tier, `≤ t2` the medium, beyond that the large.
 */
export function validateTierThresholds(t1: number, t2: number): void {
  // Written as negated comparisons so NaN is rejected too.
  if (!(t1 >= 1) || !(t2 >= t1)) {
    throw new RangeError(`tier thresholds must satisfy 1 ≤ t1 ≤ t2 (got t1=${t1}, t2=${t2})`);
  }
}

/** The three size classes of a tiered component. */
export type TierName = 'small' | 'medium' | 'large';

/** Picks the size class of a batch of `size` items (thresholds inclusive). */
export function tierForSize(size: number, t1: number, t2: number): TierName {
  if (size <= t1) return 'small';
  if (size <= t2) return 'medium';
  return 'large';
}
