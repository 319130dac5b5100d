import { SummaryResult, summaryResult } from '@qhorus/api';
import { ANNOTATION_ITEM_COUNT, ANNOTATION_TIER, TIER_VERBATIM, overlayAnnotations } from './annotations';
import { ContentSummariser, ItemRenderer, SummariseOptions } from './content-summariser';
import { appendSection, previousText } from './summary-text';

/** Prefix of each listed item, a Markdown bullet. */
export const VERBATIM_BULLET = '- ';

/**
 * The zero-cost tier: lists each item under the previous text. Exact, but it grows with the
 * stream, which is why it serves only small batches in a tiered setup.
 */
export class VerbatimContentSummariser<T> implements ContentSummariser<T> {
  constructor(private readonly render: ItemRenderer<T>) {}

  async summarise(items: readonly T[], previous?: SummaryResult | null, _options?: SummariseOptions): Promise<SummaryResult> {
    const section = items.map((item) => VERBATIM_BULLET + this.render(item)).join('\n');
    return summaryResult(
      appendSection(previousText(previous), section),
      overlayAnnotations(previous, { [ANNOTATION_TIER]: TIER_VERBATIM, [ANNOTATION_ITEM_COUNT]: String(items.length) }),
    );
  }
}
