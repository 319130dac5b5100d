/**
 * The retention rule (DESIGN §10), pure: which prefix of a channel one retention step removes,
 * and which summary version becomes the channel's base. The summary is the channel's long
 * memory, so a step removes messages only up to the watermark of a kept summary version, and
 * exactly up to it: `firstSeq = base watermark + 1` holds after every step, so a redaction of
 * any kept seq finds a version before it (the base at worst) to rewind to and replay from.
 */

export const MS_PER_DAY = 86_400_000;

/** A kept summary version as the rule sees it. */
export interface KeptVersion {
  version: number;
  coversThroughSeq: number;
  /** When the message at the watermark was posted (null: not known, e.g. watermark 0). */
  coveredAt: Date | null;
}

export interface RetentionPolicy {
  /** null: no age bound. */
  maxAgeDays: number | null;
  /** null: no count bound. */
  maxMessages: number | null;
}

export interface RetentionChannelState {
  /** The oldest kept seq (everything before it is gone). */
  firstSeq: number;
  lastSeq: number;
  /** The summary versions still kept (history, base included), any order. */
  versions: readonly KeptVersion[];
}

/** One step: remove every message with seq ≤ `removeThroughSeq` and pin `baseVersion`. */
export interface RetentionStep {
  removeThroughSeq: number;
  baseVersion: number;
}

/** True when the policy removes anything at all. */
export const hasRetention = (p: RetentionPolicy): boolean => p.maxAgeDays !== null || p.maxMessages !== null;

/**
 * Is every message up to the version's watermark past a bound? The count bound holds for a
 * prefix (`seq ≤ lastSeq − maxMessages`); the age bound for the message at the watermark holds
 * for the ones before it too (seqs are allocated in time order).
 */
function pastABound(v: KeptVersion, state: RetentionChannelState, policy: RetentionPolicy, now: Date): boolean {
  if (policy.maxMessages !== null && v.coversThroughSeq <= state.lastSeq - policy.maxMessages) return true;
  return policy.maxAgeDays !== null && v.coveredAt !== null && v.coveredAt.getTime() <= now.getTime() - policy.maxAgeDays * MS_PER_DAY;
}

/**
 * The next step, or null when nothing can go. Among the versions whose watermark is past the
 * kept start and past a bound, the furthest one within `batch` messages; when none lies within
 * the batch (versions sparser than it), the nearest beyond it: a step always ends on a watermark.
 */
export function nextRetentionStep(state: RetentionChannelState, policy: RetentionPolicy, now: Date, batch: number): RetentionStep | null {
  const removedThrough = state.firstSeq - 1;
  const eligible = state.versions.filter((v) => v.coversThroughSeq > removedThrough && v.coversThroughSeq <= state.lastSeq && pastABound(v, state, policy, now));
  if (eligible.length === 0) return null;
  const limit = removedThrough + batch;
  const within = eligible.filter((v) => v.coversThroughSeq <= limit);
  const pick = within.length > 0 ? within.reduce(furthest) : eligible.reduce(nearest);
  return { removeThroughSeq: pick.coversThroughSeq, baseVersion: pick.version };
}

/** The later watermark (the newer version on a tie). */
const furthest = (a: KeptVersion, b: KeptVersion) => (b.coversThroughSeq > a.coversThroughSeq || (b.coversThroughSeq === a.coversThroughSeq && b.version > a.version) ? b : a);
/** The earlier watermark (the newer version on a tie). */
const nearest = (a: KeptVersion, b: KeptVersion) => (b.coversThroughSeq < a.coversThroughSeq || (b.coversThroughSeq === a.coversThroughSeq && b.version > a.version) ? b : a);

/**
 * When the age bound alone next lets a step go: the earliest moment the nearest kept version past
 * the kept start gets old enough; null when there is none (a summary commit re-arms the channel).
 */
export function nextAgeDueAt(state: RetentionChannelState, policy: RetentionPolicy): Date | null {
  if (policy.maxAgeDays === null) return null;
  const ahead = state.versions.filter((v) => v.coversThroughSeq > state.firstSeq - 1 && v.coveredAt !== null);
  if (ahead.length === 0) return null;
  const first = ahead.reduce(nearest);
  return new Date(first.coveredAt!.getTime() + policy.maxAgeDays * MS_PER_DAY);
}

/**
 * The lastSeq at which the count bound alone next lets a step go: the nearest kept version past
 * the kept start plus `maxMessages`; null without a count bound or such a version.
 */
export function nextCountDueSeq(state: RetentionChannelState, policy: RetentionPolicy): number | null {
  if (policy.maxMessages === null) return null;
  const ahead = state.versions.filter((v) => v.coversThroughSeq > state.firstSeq - 1);
  if (ahead.length === 0) return null;
  return ahead.reduce(nearest).coversThroughSeq + policy.maxMessages;
}
