import { Message } from '@qhorus/api';
import { boundChannelState } from './bound-channel-state';
import { ChannelState } from './channel-state';
import { encodeStateSnapshot } from './encode-state-snapshot';
import { readChannelState } from './read-channel-state';
import { StateAccumulator } from './state-accumulator';
import { StateCache } from './state-cache';
import { stateFromSnapshot } from './state-from-snapshot';
import { STATE_KEY_NAMES } from './state-keys';
import { ChannelStateSnapshot } from './state-snapshot';

/** The channel state after a batch: the bounded snapshot and the state keys encoding it. */
export interface TrackedState {
  readonly snapshot: ChannelStateSnapshot;
  /** The state keys only (see STATE_KEYS); the caller overlays them on a strategy's annotations. */
  readonly keys: Readonly<Record<string, string>>;
}

interface MemoEntry {
  readonly previous: Readonly<Record<string, string>>;
  readonly tracked: TrackedState;
}

/**
 * One batch's result, keyed by the batch array: the composition tracks the batch, then hands the
 * same array to the strategy, and a heuristic tier rendering the state asks again. A hit needs
 * every state key of `previous` to be the very same string, so it is only a shortcut: `track` is a
 * pure function of (state keys, batch). Shared by every tracker instance for that reason.
 */
const batchMemo = new WeakMap<readonly Message[], MemoEntry>();

/**
 * The channel state tracker (DESIGN §3): a fold `(previous annotations, batch) → state keys`.
 * Participants with counts, topics, period, open threads (DESIGN §2 thread rules), recent
 * closures, decisions and latest status per agent, bounded by the ageing rules of state-limits.ts.
 * Pure: state carries only through the annotations, never through the instance.
 */
export class ChannelStateTracker {
  private readonly cache = new StateCache();

  track(previous: Readonly<Record<string, string>> | null | undefined, batch: readonly Message[]): TrackedState {
    const annotations = previous ?? {};
    const memo = batchMemo.get(batch);
    if (memo && sameStateKeys(memo.previous, annotations)) return memo.tracked;
    const state = this.decode(annotations);
    new StateAccumulator(state).addAll(batch);
    const snapshot = boundChannelState(state);
    const tracked: TrackedState = { snapshot, keys: encodeStateSnapshot(snapshot) };
    batchMemo.set(batch, { previous: annotations, tracked });
    return tracked;
  }

  /**
   * Notes that `annotations` (a result about to be returned) carry `tracked`'s keys, so when that
   * result comes back as `previous` (a running summary over chunks, the pipeline path) the state
   * is rebuilt from the snapshot (its open threads from their text, unparsed) instead of decoding
   * every annotation again.
   */
  remember(annotations: Readonly<Record<string, string>>, tracked: TrackedState): void {
    this.cache.remember(annotations, tracked.snapshot, tracked.keys);
  }

  private decode(annotations: Readonly<Record<string, string>>): ChannelState {
    const snapshot = this.cache.recall(annotations);
    return snapshot ? stateFromSnapshot(snapshot) : readChannelState(annotations);
  }
}

function sameStateKeys(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  if (a === b) return true;
  for (const key of STATE_KEY_NAMES) if (a[key] !== b[key]) return false;
  return true;
}
