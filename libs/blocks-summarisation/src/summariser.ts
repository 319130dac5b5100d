import { SummaryResult } from '@qhorus/api';

/**
 * The pipeline-side summariser: one step of a running summary over a batch of events. Same
 * contract as ContentSummariser (annotations overlaid, reject rather than return blank).
 */
export interface Summariser<T> {
  summarise(events: readonly T[], previous: SummaryResult | null): Promise<SummaryResult>;
}
