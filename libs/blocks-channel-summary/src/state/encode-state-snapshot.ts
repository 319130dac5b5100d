import { STATE_KEYS as K } from './state-keys';
import { ChannelStateSnapshot, OpenThreadView } from './state-snapshot';

/** `openThreads` entry: exactly the contract shape. Memoised on the record (see OpenRecord). */
function threadJson(v: OpenThreadView): string {
  return (v.threadJson ??= JSON.stringify({ correlationId: v.correlationId, type: v.type, sender: v.sender, seq: v.seq }));
}

/** `openThreadDetails` entry, keyed by the request's seq. */
function detailJson(v: OpenThreadView): string {
  return (v.detailJson ??= JSON.stringify({ target: v.target, topic: v.topic, at: v.at, text: v.text }));
}

/**
 * Joins JSON fragments with `+=` rather than Array.join: V8 then builds a rope of the (memoised)
 * fragments instead of copying every byte of a long open list on every call.
 */
function joinJson(open: string, views: readonly OpenThreadView[], fragment: (v: OpenThreadView) => string, close: string): string {
  let json = open;
  for (let i = 0; i < views.length; i++) json += (i === 0 ? '' : ',') + fragment(views[i]);
  return json + close;
}

/**
 * The state keys for a snapshot (and only those: the caller overlays them on the strategy's
 * annotations). `periodStart`/`periodEnd` are omitted while no message was seen.
 * The open lists are assembled from per-record JSON, exactly what JSON.stringify would give.
 */
export function encodeStateSnapshot(snapshot: ChannelStateSnapshot): Record<string, string> {
  const open = snapshot.openThreads;
  const own: Record<string, string> = {
    [K.participants]: JSON.stringify(snapshot.participants.map(([name]) => name)),
    [K.participantCounts]: JSON.stringify(Object.fromEntries(snapshot.participants)),
    [K.topics]: JSON.stringify(snapshot.topics.map(([name]) => name)),
    [K.topicCounts]: JSON.stringify(Object.fromEntries(snapshot.topics)),
    [K.messageCount]: String(snapshot.messageCount),
    [K.eventCount]: String(snapshot.eventCount),
    [K.openThreads]: joinJson('[', open, threadJson, ']'),
    [K.openThreadDetails]: joinJson('{', open, (v) => `"${v.seq}":${detailJson(v)}`, '}'),
    [K.openThreadsDropped]: String(snapshot.openThreadsDropped),
    [K.recentClosures]: JSON.stringify(snapshot.recentClosures),
    [K.decisions]: JSON.stringify(snapshot.decisions),
    [K.latestStatus]: JSON.stringify(snapshot.latestStatus),
  };
  if (snapshot.periodStart !== null) own[K.periodStart] = snapshot.periodStart;
  if (snapshot.periodEnd !== null) own[K.periodEnd] = snapshot.periodEnd;
  return own;
}
