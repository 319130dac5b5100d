import { ChannelStateSnapshot } from './state-snapshot';
import { emptyChannelState, ChannelState } from './channel-state';
import { readOpenThreads } from './read-channel-state';

/** Rebuilds the working state from a snapshot (records are shared, never mutated: see OpenRecord). */
export function stateFromSnapshot(s: ChannelStateSnapshot): ChannelState {
  const open = s.openThreads.encode();
  const state = emptyChannelState(readOpenThreads(open.openThreads, open.openThreadDetails));
  for (const [name, count] of s.participants) state.participantCounts.set(name, count);
  for (const [name, count] of s.topics) state.topicCounts.set(name, count);
  state.periodStartMs = s.periodStart === null ? NaN : Date.parse(s.periodStart);
  state.periodEndMs = s.periodEnd === null ? NaN : Date.parse(s.periodEnd);
  state.messageCount = s.messageCount;
  state.eventCount = s.eventCount;
  state.openDropped = s.openThreadsDropped;
  state.closures.push(...s.recentClosures);
  state.decisions.push(...s.decisions);
  for (const { agent, seq, topic, at, text } of s.latestStatus) state.statuses.set(agent, { seq, topic, at, text });
  return state;
}
