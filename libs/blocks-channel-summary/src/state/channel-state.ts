import { ClosureRecord, DecisionRecord, OpenRecord, StatusRecord } from './state-records';

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
  /** Open requests by thread key (see threadKey), in seq order. */
  readonly open: Map<string, OpenRecord>;
  /** seq of each known request → its thread key, to match closings by inReplyTo. */
  readonly openBySeq: Map<number, string>;
  /** Open requests dropped past OPEN_THREADS_CAP, cumulative. */
  openDropped: number;
  /** Oldest first; trimmed to the newest when bounded. */
  readonly closures: ClosureRecord[];
  readonly decisions: DecisionRecord[];
  /** Latest STATUS per agent. */
  readonly statuses: Map<string, StatusRecord>;
}

/** Prefix of the synthetic key of a request without correlation id (not expected: the service generates one). */
const SEQ_KEY_PREFIX = '\u0000seq:';

/** The key a thread is tracked under: its correlation id, or its request seq when it has none. */
export function threadKey(correlationId: string | null, seq: number): string {
  return correlationId ?? SEQ_KEY_PREFIX + seq;
}

export function emptyChannelState(): ChannelState {
  return {
    participantCounts: new Map(),
    topicCounts: new Map(),
    periodStartMs: NaN,
    periodEndMs: NaN,
    messageCount: 0,
    eventCount: 0,
    open: new Map(),
    openBySeq: new Map(),
    openDropped: 0,
    closures: [],
    decisions: [],
    statuses: new Map(),
  };
}
