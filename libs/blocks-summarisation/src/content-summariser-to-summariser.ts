import { SummaryResult } from '@qhorus/api';
import { ContentSummariser, SummariseOptions } from './content-summariser';
import { LevelEvent } from './level-event';
import { Summariser } from './summariser';

/**
 * Runs a ContentSummariser unchanged in the pipeline: unwraps each event's payload (in batch
 * order) and passes fixed options (e.g. the stream's preamble). The algorithm is the same object
 * the hook path uses; only the orchestration differs.
 */
export class ContentSummariserToSummariser<T> implements Summariser<LevelEvent<T>> {
  constructor(
    private readonly content: ContentSummariser<T>,
    private readonly options?: SummariseOptions,
  ) {}

  summarise(events: readonly LevelEvent<T>[], previous: SummaryResult | null): Promise<SummaryResult> {
    return this.content.summarise(
      events.map((event) => event.payload),
      previous,
      this.options,
    );
  }
}
