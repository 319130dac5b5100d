import { ItemRenderer } from './content-summariser';
import { tierForSize, validateTierThresholds } from './tier-thresholds';

/** What an agent sees when nothing happened since its last action. */
export const NO_NEW_OBSERVATIONS = 'Nothing new since your last action.';
/** Groups named in the one-paragraph summary; the rest are counted as "N more". */
export const OBSERVATION_SUMMARY_TOP_GROUPS = 3;
/** Prefix of each verbatim or grouped line, a Markdown bullet. */
export const OBSERVATION_BULLET = '- ';

interface ObservationGroup {
  readonly key: string;
  count: number;
  latest: string;
}

/**
 * Renders "what just happened since your last action" at a size an agent can read: each item
 * verbatim for `≤ t1` items, one line per group (count and latest item) for `≤ t2`, and a
 * one-paragraph count summary beyond. Thresholds are validated like the tiered summariser's.
 * Groups are listed busiest first, ties in order of first appearance.
 */
export class TieredObservationRenderer<T> {
  constructor(
    private readonly renderItem: ItemRenderer<T>,
    private readonly groupKey: (item: T) => string,
    private readonly t1: number,
    private readonly t2: number,
  ) {
    validateTierThresholds(t1, t2);
  }

  render(items: readonly T[]): string {
    if (items.length === 0) return NO_NEW_OBSERVATIONS;
    switch (tierForSize(items.length, this.t1, this.t2)) {
      case 'small':
        return items.map((item) => OBSERVATION_BULLET + this.renderItem(item)).join('\n');
      case 'medium':
        return this.grouped(items);
      case 'large':
        return this.summarised(items);
    }
  }

  private grouped(items: readonly T[]): string {
    const groups = this.groupsOf(items, true);
    const lines = groups.map((g) => `${OBSERVATION_BULLET}${g.key} (${g.count}), latest: ${g.latest}`);
    return [`${items.length} new items in ${groups.length} ${plural(groups.length, 'group')}:`, ...lines].join('\n');
  }

  private summarised(items: readonly T[]): string {
    const groups = this.groupsOf(items, false);
    const top = groups.slice(0, OBSERVATION_SUMMARY_TOP_GROUPS).map((g) => `${g.key} (${g.count})`);
    const rest = groups.length - top.length;
    const named = rest > 0 ? `${top.join(', ')} and ${rest} more` : top.join(', ');
    return `${items.length} new items since your last action, across ${groups.length} ${plural(groups.length, 'group')}; most active: ${named}.`;
  }

  /** Counts per key, busiest first (stable sort keeps first-appearance order for ties). */
  private groupsOf(items: readonly T[], withLatest: boolean): ObservationGroup[] {
    const byKey = new Map<string, ObservationGroup>();
    for (const item of items) {
      const key = this.groupKey(item);
      const group = byKey.get(key) ?? { key, count: 0, latest: '' };
      group.count += 1;
      if (withLatest) group.latest = this.renderItem(item);
      byKey.set(key, group);
    }
    return [...byKey.values()].sort((a, b) => b.count - a.count);
  }
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}
