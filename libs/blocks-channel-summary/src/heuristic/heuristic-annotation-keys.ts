import { ANNOTATION_ITEM_COUNT, ANNOTATION_TIER, TIER_GROUPED } from '@qhorus/blocks-summarisation';

/**
 * Annotation keys the heuristic summariser owns. It overlays only these on the previous
 * annotations; every other key (other tiers, other code) survives untouched.
 * Values are strings; lists are JSON arrays, maps JSON objects, numbers decimal strings.
 */
export const HEURISTIC_KEYS = Object.freeze({
  tier: ANNOTATION_TIER,
  itemCount: ANNOTATION_ITEM_COUNT,
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

/** The `tier` value the heuristic writes (the design calls its level "grouped"). */
export const HEURISTIC_TIER = TIER_GROUPED;
