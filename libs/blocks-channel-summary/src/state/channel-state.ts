import { OpenThreadSet } from './open-thread-set';
import { ClosureRecord, DecisionRecord, StatusRecord } from './state-records';

/**
 * The tracker's working state during one call: decoded from the previous annotations, folded
 * over the batch, then bounded and encoded back. Nothing else carries over.
 */
export interface ChannelState {
  /** Conversation messages per sender, in first-seen order. */
  readonly participantCounts: Map<string, number>;
  /** Conversation messages per topic, in first-seen order. */
  readonly topicCounts: Map<string, number>;
  /** Earliest and latest createdAt seen, epoch ms; NaN while unknown. */
  periodStartMs: number;
  periodEndMs: number;
  /** Conversation (non-EVENT) messages and EVENT messages seen, cumulative. */
  messageCount: number;
  eventCount: number;
  /** Open threads by thread key (see threadKey), in seq order. */
  readonly open: OpenThreadSet;
  /** Open requests dropped past OPEN_THREADS_CAP, cumulative. */
  openDropped: number;
  /** Oldest first; trimmed to the newest when bounded. */
  readonly closures: ClosureRecord[];
  readonly decisions: DecisionRecord[];
  /** Latest STATUS per agent. */
  readonly statuses: Map<string, StatusRecord>;
}

export function emptyChannelState(open: OpenThreadSet = new OpenThreadSet()): ChannelState {
  return {
    participantCounts: new Map(),
    topicCounts: new Map(),
    periodStartMs: NaN,
    periodEndMs: NaN,
    messageCount: 0,
    eventCount: 0,
    open,
    openDropped: 0,
    closures: [],
    decisions: [],
    statuses: new Map(),
  };
}
