import { OpenThreadSet } from './open-thread-set';
import { RecentList, StatusList } from './recent-list';
import { DECISIONS_KEEP, RECENT_CLOSURES_KEEP, STATUS_AGENTS_KEEP } from './state-limits';
import { ClosureRecord, DecisionRecord } from './state-records';

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
  /** Oldest first; the newest kept when bounded. */
  readonly closures: RecentList<ClosureRecord>;
  readonly decisions: RecentList<DecisionRecord>;
  /** Latest STATUS per agent. */
  readonly statuses: StatusList;
}

/** The parts of a state read from annotations (each read lazily from its text where it can be). */
export type CarriedLists = Partial<Pick<ChannelState, 'open' | 'closures' | 'decisions' | 'statuses'>>;

export function emptyChannelState(lists: CarriedLists = {}): ChannelState {
  return {
    participantCounts: new Map(),
    topicCounts: new Map(),
    periodStartMs: NaN,
    periodEndMs: NaN,
    messageCount: 0,
    eventCount: 0,
    open: lists.open ?? new OpenThreadSet(),
    openDropped: 0,
    closures: lists.closures ?? new RecentList(RECENT_CLOSURES_KEEP),
    decisions: lists.decisions ?? new RecentList(DECISIONS_KEEP),
    statuses: lists.statuses ?? new StatusList(STATUS_AGENTS_KEEP),
  };
}
