import { DEFAULT_TOPIC } from '@qhorus/api';
import { OpenThreadSet, THREAD_TYPE_NAMES, threadKey, toOpenRecord } from './open-thread-set';
import { OpenThreadText } from './open-thread-text';
import { STATE_KEYS as K } from './state-keys';
import { CLOSURE_OUTCOMES, ClosureOutcome, ClosureRecord, DecisionRecord, OpenRecord, ThreadType } from './state-records';
import { emptyChannelState, ChannelState } from './channel-state';
import { CLOSURE_ENTRY, DECISION_ENTRY, STATUS_ENTRY } from './canonical-entry';
import { LineListText } from './line-list';
import { carriedStatuses, RecentList, StatusList } from './recent-list';
import { DECISIONS_KEEP, RECENT_CLOSURES_KEEP, STATUS_AGENTS_KEEP } from './state-limits';
import {
  asNullableString,
  asSeq,
  asString,
  isObject,
  readCount,
  readInstantMs,
  readJsonArray,
  readJsonObject,
} from './json-annotation';

const OUTCOME_NAMES: ReadonlySet<string> = new Set(CLOSURE_OUTCOMES);

/**
 * Decodes the channel state from the previous annotations, once per call (never per message).
 * Every value is validated; a malformed value or entry reads as absent rather than throwing,
 * because annotations may have been written by another tier, another version or by hand.
 */
export function readChannelState(annotations: Readonly<Record<string, string>>): ChannelState {
  const state = emptyChannelState({
    open: readOpenThreads(annotations[K.openThreads], annotations[K.openThreadDetails]),
    closures: readClosures(annotations[K.recentClosures]),
    decisions: readDecisions(annotations[K.decisions]),
    statuses: readStatuses(annotations[K.latestStatus]),
  });
  readNameCounts(annotations[K.participants], annotations[K.participantCounts], state.participantCounts);
  readNameCounts(annotations[K.topics], annotations[K.topicCounts], state.topicCounts);
  state.periodStartMs = readInstantMs(annotations[K.periodStart]);
  state.periodEndMs = readInstantMs(annotations[K.periodEnd]);
  state.messageCount = readCount(annotations[K.messageCount]);
  state.eventCount = readCount(annotations[K.eventCount]);
  state.openDropped = readCount(annotations[K.openThreadsDropped]);
  return state;
}

/**
 * `recentClosures` and `decisions`: in the tracker's canonical one-per-line form the entries are
 * kept as text (see line-list.ts); any other value is decoded entry by entry, invalid ones skipped.
 */
export function readClosures(value: string | undefined): RecentList<ClosureRecord> {
  return readRecentList(value, CLOSURE_ENTRY, RECENT_CLOSURES_KEEP, toClosure);
}

export function readDecisions(value: string | undefined): RecentList<DecisionRecord> {
  return readRecentList(value, DECISION_ENTRY, DECISIONS_KEEP, toDecision);
}

function readRecentList<R>(value: string | undefined, entry: RegExp, keep: number, decode: (raw: unknown) => R | undefined): RecentList<R> {
  const text = LineListText.parse(value, entry);
  if (text !== null) return new RecentList(keep, text);
  const list = new RecentList<R>(keep);
  for (const raw of readJsonArray(value)) {
    const record = decode(raw);
    if (record !== undefined) list.push(record);
  }
  return list;
}

/** A name list plus its counts object; names only in one of the two are kept too (count 0 if unknown). */
function readNameCounts(list: string | undefined, counts: string | undefined, into: Map<string, number>): void {
  const countOf = readJsonObject(counts);
  for (const name of readJsonArray(list)) {
    if (typeof name !== 'string' || into.has(name)) continue;
    const n = Object.hasOwn(countOf, name) ? countOf[name] : 0;
    into.set(name, isCount(n) ? n : 0);
  }
  for (const [name, n] of Object.entries(countOf)) {
    if (!into.has(name) && isCount(n)) into.set(name, n);
  }
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/**
 * The open threads: in the tracker's own one-per-line form they are read lazily (see
 * open-thread-text.ts); any other encoding (an older compact one, another writer's) is decoded
 * whole, entry by entry, in seq order, a duplicate thread keeping its first entry.
 */
export function readOpenThreads(list: string | undefined, details: string | undefined): OpenThreadSet {
  const text = OpenThreadText.parse(list, details);
  if (text !== null) return new OpenThreadSet(text);
  const detailBySeq = readJsonObject(details);
  const records: OpenRecord[] = [];
  for (const raw of readJsonArray(list)) {
    const seq = isObject(raw) ? asSeq(raw.seq) : undefined;
    const key = seq === undefined ? '' : String(seq);
    const record = toOpenRecord(raw, Object.hasOwn(detailBySeq, key) ? detailBySeq[key] : undefined);
    if (record) records.push(record);
  }
  records.sort((a, b) => a.seq - b.seq); // the set's order must be seq order
  const open = new OpenThreadSet();
  for (const r of records) {
    const key = threadKey(r.correlationId, r.seq);
    if (open.get(key) === undefined) open.add(key, r);
  }
  return open;
}

function toClosure(raw: unknown): ClosureRecord | undefined {
  if (!isObject(raw)) return undefined;
  const outcome = asString(raw.outcome);
  const by = asString(raw.by);
  const seq = asSeq(raw.seq);
  if (outcome === undefined || !OUTCOME_NAMES.has(outcome) || by === undefined || seq === undefined) return undefined;
  const requestType = asString(raw.requestType);
  return {
    outcome: outcome as ClosureOutcome,
    correlationId: asNullableString(raw.correlationId),
    requestType: requestType !== undefined && THREAD_TYPE_NAMES.has(requestType) ? (requestType as ThreadType) : null,
    requester: asNullableString(raw.requester),
    requestSeq: asSeq(raw.requestSeq) ?? null,
    by,
    target: asNullableString(raw.target),
    topic: asString(raw.topic) ?? DEFAULT_TOPIC,
    seq,
    at: asString(raw.at) ?? '',
    text: asString(raw.text) ?? '',
  };
}

function toDecision(raw: unknown): DecisionRecord | undefined {
  if (!isObject(raw)) return undefined;
  const sender = asString(raw.sender);
  const seq = asSeq(raw.seq);
  if (sender === undefined || seq === undefined) return undefined;
  return { seq, sender, topic: asString(raw.topic) ?? DEFAULT_TOPIC, at: asString(raw.at) ?? '', text: asString(raw.text) ?? '' };
}

/**
 * `latestStatus`: as the lists above, the canonical form kept as text (one entry per agent); any
 * other value decoded entry by entry, an agent listed twice keeping its highest seq.
 */
export function readStatuses(value: string | undefined): StatusList {
  const text = LineListText.parse(value, STATUS_ENTRY);
  const carried = text && carriedStatuses(text);
  if (text && carried) return new StatusList(STATUS_AGENTS_KEEP, text, carried);
  const into = new StatusList(STATUS_AGENTS_KEEP);
  for (const raw of readJsonArray(value)) {
    if (!isObject(raw)) continue;
    const agent = asString(raw.agent);
    const seq = asSeq(raw.seq);
    if (agent === undefined || seq === undefined) continue;
    const current = into.get(agent);
    if (current && current.seq >= seq) continue;
    into.set(agent, { seq, topic: asString(raw.topic) ?? DEFAULT_TOPIC, at: asString(raw.at) ?? '', text: asString(raw.text) ?? '' });
  }
  return into;
}
