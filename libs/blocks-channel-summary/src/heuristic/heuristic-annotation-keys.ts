import { ANNOTATION_ITEM_COUNT, ANNOTATION_TIER, TIER_GROUPED } from '@qhorus/blocks-summarisation';
import { STATE_KEYS } from '../state/state-keys';

/**
 * Keys a heuristic result carries: the two it owns as a strategy (`tier`, `itemCount`) and the
 * state keys, which it gets from the state tracker it renders (see HeuristicMessageSummariser).
 */
export const HEURISTIC_KEYS = Object.freeze({
  tier: ANNOTATION_TIER,
  itemCount: ANNOTATION_ITEM_COUNT,
  ...STATE_KEYS,
});

/** The `tier` value the heuristic writes (the design calls its level "grouped"). */
export const HEURISTIC_TIER = TIER_GROUPED;
