import { Message, SummaryResult, summaryResult } from '@qhorus/api';
import { ContentSummariser, overlayAnnotations, SummariseOptions } from '@qhorus/blocks-summarisation';
import { boundHeuristicState } from './bound-heuristic-state';
import { encodeHeuristicSnapshot } from './encode-heuristic-snapshot';
import { HeuristicAccumulator } from './heuristic-accumulator';
import { renderHeuristicReport } from './heuristic-report';
import { HeuristicState } from './heuristic-state';
import { HeuristicStateCache } from './heuristic-state-cache';
import { readHeuristicState } from './read-heuristic-state';
import { stateFromSnapshot } from './state-from-snapshot';

/**
 * The default channel summariser: zero LLM cost, a bounded current-state report.
 *
 * State carries only through annotations (decoded once, folded over the batch in one pass,
 * bounded, encoded back), so a request opened in one batch and answered batches later leaves
 * `openThreads`. Only the heuristic's own keys are overlaid on the previous annotations; foreign
 * keys survive. The previous *text* is not read: the report is rebuilt from state each call, so
 * it never grows with the channel. `options.preamble` (the channel description) heads the report.
 */
export class HeuristicMessageSummariser implements ContentSummariser<Message> {
  private readonly cache = new HeuristicStateCache();

  async summarise(items: readonly Message[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    const state = this.decode(previous?.annotations ?? {});
    new HeuristicAccumulator(state).addAll(items);
    const snapshot = boundHeuristicState(state);
    const own = encodeHeuristicSnapshot(snapshot, items.length);
    const result = summaryResult(renderHeuristicReport(snapshot, options?.preamble), overlayAnnotations(previous, own));
    this.cache.remember(result.annotations, snapshot, own);
    return result;
  }

  private decode(annotations: Readonly<Record<string, string>>): HeuristicState {
    const snapshot = this.cache.recall(annotations);
    return snapshot ? stateFromSnapshot(snapshot) : readHeuristicState(annotations);
  }
}
