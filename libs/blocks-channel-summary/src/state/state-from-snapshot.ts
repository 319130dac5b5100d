import { ChannelStateSnapshot } from './state-snapshot';
import { emptyChannelState, ChannelState } from './channel-state';
import { readClosures, readDecisions, readOpenThreads, readStatuses } from './read-channel-state';

/** Rebuilds the working state from a snapshot: its lists from their encoded text (read lazily, as from annotations). */
export function stateFromSnapshot(s: ChannelStateSnapshot): ChannelState {
  const open = s.openThreads.encode();
  const state = emptyChannelState({
    open: readOpenThreads(open.openThreads, open.openThreadDetails),
    closures: readClosures(s.recentClosures.encode()),
    decisions: readDecisions(s.decisions.encode()),
    statuses: readStatuses(s.latestStatus.encode()),
  });
  for (const [name, count] of s.participants) state.participantCounts.set(name, count);
  for (const [name, count] of s.topics) state.topicCounts.set(name, count);
  state.periodStartMs = s.periodStart === null ? NaN : Date.parse(s.periodStart);
  state.periodEndMs = s.periodEnd === null ? NaN : Date.parse(s.periodEnd);
  state.messageCount = s.messageCount;
  state.eventCount = s.eventCount;
  state.openDropped = s.openThreadsDropped;
  return state;
}
