import { excerpt } from '../text/excerpt';
import { STATE_EXCERPT_CAP, NAME_LIST_CAP, OPEN_THREADS_CAP } from './state-limits';
import { Instant, OpenRecord, OpenThreadView, StatusRecord } from './state-records';
import { ChannelStateSnapshot, NameCount, StatusView } from './state-snapshot';
import { ChannelState } from './channel-state';

/**
 * Applies the ageing rules and materialises what survives (done once per call):
 * - open threads: past OPEN_THREADS_CAP the oldest (lowest seq) are dropped and counted;
 * - recent closures and decisions: the newest RECENT_CLOSURES_KEEP / DECISIONS_KEEP by seq;
 * - latest status: the STATUS_AGENTS_KEEP agents who reported most recently;
 *   (the three lists bound themselves, see recent-list.ts: carried entries stay text)
 * - participants and topics: past NAME_LIST_CAP the least active are dropped (first-seen order kept).
 * Only kept records are excerpted and have their dates formatted.
 */
export function boundChannelState(state: ChannelState): ChannelStateSnapshot {
  dropOldestOpen(state);
  return {
    participants: boundNames(state.participantCounts),
    topics: boundNames(state.topicCounts),
    periodStart: msToIso(state.periodStartMs),
    periodEnd: msToIso(state.periodEndMs),
    messageCount: state.messageCount,
    eventCount: state.eventCount,
    openThreads: state.open.seal(materialiseOpen),
    openThreadsDropped: state.openDropped,
    recentClosures: state.closures.seal(materialise),
    decisions: state.decisions.seal(materialise),
    latestStatus: state.statuses.seal(materialiseStatus),
  };
}

function dropOldestOpen(state: ChannelState): void {
  const excess = state.open.size - OPEN_THREADS_CAP;
  if (excess <= 0) return;
  state.openDropped += excess;
  state.open.dropOldest(excess);
}

function boundNames(counts: ReadonlyMap<string, number>): NameCount[] {
  const all = [...counts.entries()];
  if (all.length <= NAME_LIST_CAP) return all;
  const kept = new Set(
    [...all]
      .sort((a, b) => b[1] - a[1])
      .slice(0, NAME_LIST_CAP)
      .map(([name]) => name),
  );
  return all.filter(([name]) => kept.has(name));
}

/**
 * A record with ISO date and excerpted text. One that already is (carried over from a previous
 * call) is returned as is: reusing the object lets the encoder reuse its cached JSON.
 */
function materialise<R extends { readonly at: Instant; readonly text: string }>(r: R): R & { readonly at: string } {
  if (typeof r.at === 'string' && r.text.length <= STATE_EXCERPT_CAP) return r as R & { readonly at: string };
  return { ...r, at: instantToIso(r.at), text: shorten(r.text) };
}

/** As `materialise`, under its agent. */
function materialiseStatus(agent: string, st: StatusRecord): StatusView {
  const { seq, topic } = st;
  if (typeof st.at === 'string' && st.text.length <= STATE_EXCERPT_CAP) return { agent, seq, topic, at: st.at, text: st.text };
  return { agent, seq, topic, at: instantToIso(st.at), text: shorten(st.text) };
}

/** As `materialise`; a new open record starts with empty JSON memos (see OpenRecord). */
function materialiseOpen(r: OpenRecord): OpenThreadView {
  if (typeof r.at === 'string' && r.text.length <= STATE_EXCERPT_CAP) return r as OpenThreadView;
  return { ...r, at: instantToIso(r.at), text: shorten(r.text), threadJson: undefined, detailJson: undefined };
}

function shorten(text: string): string {
  return excerpt(text, STATE_EXCERPT_CAP);
}

/** Largest magnitude a JS Date can hold (ECMAScript time range), in epoch ms. */
const MAX_DATE_MS = 8.64e15;

function msToIso(ms: number): string | null {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? new Date(ms).toISOString() : null;
}

function instantToIso(at: Instant): string {
  if (typeof at === 'string') return at;
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
}
