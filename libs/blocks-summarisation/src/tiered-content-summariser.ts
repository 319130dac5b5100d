import { SummaryResult, summaryResult } from '@qhorus/api';
import { ANNOTATION_TIER_FALLBACK, withoutAnnotations } from './annotations';
import { ContentSummariser, SummariseOptions } from './content-summariser';
import { TierName, tierForSize, validateTierThresholds } from './tier-thresholds';

/** Cap on the reason kept in `tierFallback`, so an SDK error body cannot bloat annotations. */
export const TIER_FALLBACK_REASON_MAX_CHARS = 200;

/**
 * Picks a summariser by batch size: `size ≤ t1` → small, `≤ t2` → medium, else large.
 *
 * Fallback: when the large tier rejects (any error, including SummariserUnavailableError), the
 * batch is summarised by the medium tier and `tierFallback = "large->medium: <reason>"` is set.
 * The key is owned by this class and means "the large tier is failing": it stays through later
 * small/medium batches (they say nothing about the large tier) and is removed, not blanked, on
 * the next successful large-tier run. If the medium tier fails too, the batch rejects.
 */
export class TieredContentSummariser<T> implements ContentSummariser<T> {
  constructor(
    private readonly small: ContentSummariser<T>,
    private readonly medium: ContentSummariser<T>,
    private readonly large: ContentSummariser<T>,
    private readonly t1: number,
    private readonly t2: number,
  ) {
    validateTierThresholds(t1, t2);
  }

  /** Two tiers: `size ≤ threshold` → small, else large; a failing large tier falls back to small. */
  static twoTier<T>(small: ContentSummariser<T>, large: ContentSummariser<T>, threshold: number): TieredContentSummariser<T> {
    return new TieredContentSummariser(small, small, large, threshold, threshold);
  }

  /** The size class a batch of `size` items goes to. */
  tierFor(size: number): TierName {
    return tierForSize(size, this.t1, this.t2);
  }

  async summarise(items: readonly T[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    const tier = this.tierFor(items.length);
    if (tier === 'small') return this.small.summarise(items, previous, options);
    if (tier === 'medium') return this.medium.summarise(items, previous, options);

    let largeError: unknown;
    try {
      const result = await this.large.summarise(items, previous, options);
      return summaryResult(result.text, withoutAnnotations(result.annotations, [ANNOTATION_TIER_FALLBACK]));
    } catch (error) {
      largeError = error;
    }
    const reason = shortReason(largeError);
    let fallback: SummaryResult;
    try {
      fallback = await this.medium.summarise(items, previous, options);
    } catch (mediumError) {
      throw new Error(`large tier failed (${reason}) and medium tier fallback failed (${shortReason(mediumError)})`, { cause: mediumError });
    }
    return summaryResult(fallback.text, { ...fallback.annotations, [ANNOTATION_TIER_FALLBACK]: `large->medium: ${reason}` });
  }
}

/** One line, bounded, from any thrown value. */
function shortReason(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw.replace(/\s+/g, ' ').trim() || 'unknown error';
  return line.length > TIER_FALLBACK_REASON_MAX_CHARS ? line.slice(0, TIER_FALLBACK_REASON_MAX_CHARS - 1) + '…' : line;
}
