import { SummaryResult } from '@qhorus/api';

/**
 * Summarises a batch of items, continuing from the previous result.
 *
 * Annotation contract: an implementation starts from `previous.annotations` and overlays only
 * the keys it owns, so keys accumulated by other tiers or written by other code survive.
 */
export interface ContentSummariser<T> {
  summarise(items: readonly T[], previous?: SummaryResult | null): Promise<SummaryResult>;
}

/** Renders one item as a single line of text for verbatim lists and prompts. */
export type ItemRenderer<T> = (item: T) => string;
