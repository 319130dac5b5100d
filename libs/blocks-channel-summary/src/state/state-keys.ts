/**
 * Annotation keys the channel state tracker owns (DESIGN §3). The tracker runs over every batch,
 * whatever strategy writes the text, and overlays these keys on the strategy's annotations.
 * Values are strings; lists are JSON arrays, maps JSON objects, numbers decimal strings.
 */
export const STATE_KEYS = Object.freeze({
  participants: 'participants',
  participantCounts: 'participantCounts',
  topics: 'topics',
  topicCounts: 'topicCounts',
  periodStart: 'periodStart',
  periodEnd: 'periodEnd',
  messageCount: 'messageCount',
  eventCount: 'eventCount',
  openThreads: 'openThreads',
  openThreadDetails: 'openThreadDetails',
  openThreadsDropped: 'openThreadsDropped',
  recentClosures: 'recentClosures',
  decisions: 'decisions',
  latestStatus: 'latestStatus',
});

export type StateKey = (typeof STATE_KEYS)[keyof typeof STATE_KEYS];

export const STATE_KEY_NAMES: readonly StateKey[] = Object.freeze(Object.values(STATE_KEYS));
