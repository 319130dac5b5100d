import { BoundedTextBuilder } from '../text/bounded-text-builder';
import { excerpt } from '../text/excerpt';
import { fitLine, inlineList, ListSection, writeListSection } from '../text/list-lines';
import { HEURISTIC_LINE_CAP, HEURISTIC_PREAMBLE_CAP, HEURISTIC_TEXT_CAP, SECTION_WEIGHTS } from './heuristic-limits';
import { ClosureView, DecisionView, ChannelStateSnapshot, NameCount, StatusView } from '../state/state-snapshot';
import { OpenThreadView } from '../state/state-records';

/**
 * The heuristic's text: a current-state report, at most HEURISTIC_TEXT_CAP characters (or the
 * caller's smaller `maxChars`) whatever the channel's length. Header lines (channel, period, participants, topics) come first; then the
 * list sections share the remaining budget by SECTION_WEIGHTS, newest first, each ending with
 * "… and N more" when cut. Lines are whole or visibly shortened with "…", never cut silently.
 */
export function renderHeuristicReport(s: ChannelStateSnapshot, preamble?: string | null, maxChars: number = HEURISTIC_TEXT_CAP): string {
  const out = new BoundedTextBuilder(Math.min(maxChars, HEURISTIC_TEXT_CAP));
  const line = (text: string) => out.tryAdd(fitLine(text, HEURISTIC_LINE_CAP));
  if (preamble && preamble.trim()) line(`Channel: ${excerpt(preamble, HEURISTIC_PREAMBLE_CAP)}`);
  line(periodLine(s));
  out.tryAdd(inlineList(`Participants (${s.participants.length})`, byActivity(s.participants), HEURISTIC_LINE_CAP));
  out.tryAdd(inlineList(`Topics (${s.topics.length})`, byActivity(s.topics), HEURISTIC_LINE_CAP));
  writeSections(out, [
    [openSection(s), SECTION_WEIGHTS.openThreads],
    [listSection('Recently closed or handed off', s.recentClosures, closureLine), SECTION_WEIGHTS.recentClosures],
    [listSection('Latest status per agent', s.latestStatus, statusLine), SECTION_WEIGHTS.latestStatus],
    [listSection('Decisions', s.decisions, decisionLine), SECTION_WEIGHTS.decisions],
  ]);
  return out.toString();
}

/** Gives each non-empty section its weighted share of what is left; unused budget flows on. */
function writeSections(out: BoundedTextBuilder, sections: ReadonlyArray<readonly [ListSection | null, number]>): void {
  const present = sections.filter((entry): entry is readonly [ListSection, number] => entry[0] !== null);
  let weightLeft = present.reduce((sum, [, w]) => sum + w, 0);
  for (const [section, weight] of present) {
    const budget = Math.floor((out.remaining * weight) / weightLeft);
    writeListSection(out, section, budget);
    weightLeft -= weight;
  }
}

function periodLine(s: ChannelStateSnapshot): string {
  const counts = `${s.messageCount} messages, ${s.eventCount} events`;
  if (s.periodStart === null || s.periodEnd === null) return `Period: none yet (${counts})`;
  return `Period: ${s.periodStart} → ${s.periodEnd} (${counts})`;
}

/** Most active first (stable: ties keep first-seen order). */
function byActivity(entries: readonly NameCount[]): string[] {
  return [...entries].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${name} ${count}`);
}

function openSection(s: ChannelStateSnapshot): ListSection {
  const dropped = s.openThreadsDropped > 0 ? `; ${s.openThreadsDropped} older no longer tracked` : '';
  if (s.openThreads.length === 0) return { heading: `Open threads: none${dropped}`, size: 0, item: () => '' };
  return newestFirst(`Open threads (${s.openThreads.length}${dropped}), newest first:`, s.openThreads, openLine);
}

function listSection<T>(title: string, items: IndexedList<T>, render: (item: T) => string): ListSection | null {
  return items.length === 0 ? null : newestFirst(`${title} (newest first):`, items, render);
}

/** An array, or a lazily read list of the snapshot (see LineListView, OpenThreadList). */
interface IndexedList<T> {
  readonly length: number;
  at(i: number): T | undefined;
}

/** Lists are kept in ascending seq order; the report shows the newest first (rendering only what it shows). */
function newestFirst<T>(heading: string, items: IndexedList<T>, render: (item: T) => string): ListSection {
  return { heading, size: items.length, item: (i) => render(items.at(items.length - 1 - i) as T) };
}

function item(text: string): string {
  return fitLine(`- ${text}`, HEURISTIC_LINE_CAP);
}

function corr(correlationId: string | null): string {
  return correlationId ? ` (corr ${correlationId})` : '';
}

function openLine(t: OpenThreadView): string {
  return item(describeOpenThread(t));
}

function closureLine(c: ClosureView): string {
  const who = c.target ? `${c.by}→${c.target}` : c.by;
  const request = c.requestSeq !== null ? ` re #${c.requestSeq} ${c.requestType} from ${c.requester}` : '';
  return item(`#${c.seq} ${c.outcome} ${who} [${c.topic}]${request}${corr(c.correlationId)}: ${c.text}`);
}

function statusLine(st: StatusView): string {
  return item(`${st.agent} #${st.seq} [${st.topic}]: ${st.text}`);
}

function decisionLine(d: DecisionView): string {
  return item(describeDecision(d));
}

/** One open thread as a line (no bullet): `#4 QUERY alice→bob [build] (corr c-4) since …: text`. Shared with the LLM grounding. */
export function describeOpenThread(t: OpenThreadView): string {
  const since = t.at ? ` since ${t.at}` : '';
  return `#${t.seq} ${t.type} ${t.sender}→${t.target ?? 'anyone'} [${t.topic}]${corr(t.correlationId)}${since}: ${t.text}`;
}

/** One decision as a line (no bullet). Shared with the LLM grounding. */
export function describeDecision(d: DecisionView): string {
  return `#${d.seq} ${d.sender} [${d.topic}]: ${d.text}`;
}
