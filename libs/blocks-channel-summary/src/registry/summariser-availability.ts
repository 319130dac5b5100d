import { Message } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';

/** Whether a strategy can run now; `reason` says why not. */
export interface SummariserAvailability {
  readonly available: boolean;
  readonly reason?: string;
}

/** A registered strategy; `unavailableReason` is what to say when it reports `available === false`. */
export interface SummariserEntry {
  readonly summariser: ContentSummariser<Message>;
  readonly unavailableReason?: string;
}
