import { Message, SummaryResult, summaryResult } from '@qhorus/api';
import { ANNOTATION_TEXT_TRUNCATED, ContentSummariser, overlayAnnotations, SummariseOptions } from '@qhorus/blocks-summarisation';
import { ChannelStateTracker } from '../state/channel-state-tracker';
import { HEURISTIC_KEYS as K, HEURISTIC_TIER } from './heuristic-annotation-keys';
import { renderHeuristicReport } from './heuristic-report';

/**
 * The default channel summariser: zero LLM cost, a bounded current-state report.
 *
 * Text only, on top of the channel state tracker: the state (participants, open threads, …) is
 * the tracker's, folded from the previous annotations over the batch, and the report renders it.
 * The result carries the tracker's state keys too, so the heuristic is complete on its own (the
 * pipeline path, thread summaries); in a channel's summary slot the composition runs the same
 * tracker on the same batch (a memo hit, not a second fold). The previous *text* is not read:
 * the report is rebuilt each call, so it never grows with the channel. `options.preamble` (the
 * channel description) heads the report; `options.maxChars` can only make it shorter.
 */
export class HeuristicMessageSummariser implements ContentSummariser<Message> {
  constructor(private readonly tracker: ChannelStateTracker = new ChannelStateTracker()) {}

  async summarise(items: readonly Message[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    const tracked = this.tracker.track(previous?.annotations, items);
    const own = { ...tracked.keys, [K.tier]: HEURISTIC_TIER, [K.itemCount]: String(items.length) };
    const annotations = overlayAnnotations(previous, own);
    // The report is bounded by construction and never cut, so a stale cut flag goes.
    if (ANNOTATION_TEXT_TRUNCATED in annotations) delete annotations[ANNOTATION_TEXT_TRUNCATED];
    const result = summaryResult(renderHeuristicReport(tracked.snapshot, options?.preamble, options?.maxChars), annotations);
    this.tracker.remember(result.annotations, tracked);
    return result;
  }
}
