import { STATE_KEYS as K } from './state-keys';
import { ChannelStateSnapshot } from './state-snapshot';

/**
 * The state keys for a snapshot (and only those: the caller overlays them on the strategy's
 * annotations). `periodStart`/`periodEnd` are omitted while no message was seen.
 * The lists are one entry per line (see open-thread-text.ts, line-list.ts): untouched entries are copied.
 */
export function encodeStateSnapshot(snapshot: ChannelStateSnapshot): Record<string, string> {
  const open = snapshot.openThreads.encode();
  const own: Record<string, string> = {
    [K.participants]: JSON.stringify(snapshot.participants.map(([name]) => name)),
    [K.participantCounts]: JSON.stringify(Object.fromEntries(snapshot.participants)),
    [K.topics]: JSON.stringify(snapshot.topics.map(([name]) => name)),
    [K.topicCounts]: JSON.stringify(Object.fromEntries(snapshot.topics)),
    [K.messageCount]: String(snapshot.messageCount),
    [K.eventCount]: String(snapshot.eventCount),
    [K.openThreads]: open.openThreads,
    [K.openThreadDetails]: open.openThreadDetails,
    [K.openThreadsDropped]: String(snapshot.openThreadsDropped),
    [K.recentClosures]: snapshot.recentClosures.encode(),
    [K.decisions]: snapshot.decisions.encode(),
    [K.latestStatus]: snapshot.latestStatus.encode(),
  };
  if (snapshot.periodStart !== null) own[K.periodStart] = snapshot.periodStart;
  if (snapshot.periodEnd !== null) own[K.periodEnd] = snapshot.periodEnd;
  return own;
}
