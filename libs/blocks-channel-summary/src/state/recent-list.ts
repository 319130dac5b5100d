import { STATUS_HEAD, STATUS_SEQ_KEY } from './canonical-entry';
import { LineListText, LineListView } from './line-list';
import { StatusRecord } from './state-records';
import { StatusView } from './state-snapshot';

/**
 * An append-only list kept to its newest `keep` entries (recent closures, decisions): the entries
 * carried in the previous annotations' text (copied, see line-list.ts), then the records of this
 * call (or every entry, decoded the slow way from another encoding), oldest first.
 */
export class RecentList<R> {
  private readonly added: R[] = [];

  constructor(
    private readonly keep: number,
    private readonly carried: LineListText = LineListText.EMPTY,
  ) {}

  push(record: R): void {
    this.added.push(record);
    // Amortised O(1) per push: trimmed only once it doubles.
    if (this.added.length > 2 * this.keep) this.added.splice(0, this.added.length - this.keep);
  }

  /** The newest `keep`, this call's records materialised (the carried ones are already). */
  seal<V>(materialise: (record: R) => V): LineListView<V> {
    const added = this.added.slice(-this.keep).map(materialise);
    const first = Math.max(0, this.carried.count - (this.keep - added.length));
    const items: Array<number | V> = [];
    for (let i = first; i < this.carried.count; i++) items.push(i);
    for (const view of added) items.push(view);
    return new LineListView(this.carried, items);
  }
}

/** A carried `latestStatus` entry's agent and seq, read from its text (see STATUS_HEAD). */
export interface CarriedStatus {
  readonly agent: string;
  readonly seq: number;
}

/**
 * The latest STATUS per agent, the `keep` agents who reported most recently: the carried entries
 * (one per agent, each with its agent and seq read from the text, see carriedStatuses) and the
 * statuses set in this call (or every one, decoded the slow way), which win over a carried one.
 */
export class StatusList {
  /** By agent, in first-seen order. */
  private readonly latest = new Map<string, StatusRecord>();

  constructor(
    private readonly keep: number,
    private readonly carried: LineListText = LineListText.EMPTY,
    private readonly carriedEntries: readonly CarriedStatus[] = [],
  ) {}

  get(agent: string): StatusRecord | undefined {
    return this.latest.get(agent);
  }

  set(agent: string, record: StatusRecord): void {
    this.latest.set(agent, record);
  }

  /**
   * By seq, the newest `keep`. The order before sorting is the one of a map filled with the
   * carried entries first (a carried agent keeps its place, with this call's status if it has
   * one), so equal seqs (only in a foreign value) sort as they always did.
   */
  seal(materialise: (agent: string, record: StatusRecord) => StatusView): LineListView<StatusView> {
    const items: Array<{ readonly seq: number; readonly item: number | StatusView }> = [];
    const seen = new Set<string>();
    this.carriedEntries.forEach(({ agent, seq }, i) => {
      const mine = this.latest.get(agent);
      if (mine === undefined) {
        items.push({ seq, item: i });
        return;
      }
      seen.add(agent);
      items.push({ seq: mine.seq, item: materialise(agent, mine) });
    });
    for (const [agent, record] of this.latest) if (!seen.has(agent)) items.push({ seq: record.seq, item: materialise(agent, record) });
    items.sort((a, b) => a.seq - b.seq);
    return new LineListView(
      this.carried,
      items.slice(-this.keep).map((x) => x.item),
    );
  }
}

/**
 * Agent and seq of each entry of a canonical `latestStatus` text, or null when two entries name
 * the same agent (only another writer does that: the caller then decodes the key the slow way).
 */
export function carriedStatuses(text: LineListText): CarriedStatus[] | null {
  const entries: CarriedStatus[] = [];
  const agents = new Set<string>();
  const source = text.source;
  for (let i = 0; i < text.count; i++) {
    const from = text.start(i) + STATUS_HEAD.length;
    const agentEnd = source.indexOf(STATUS_SEQ_KEY, from);
    const agentJson = source.slice(from, agentEnd);
    // Without an escape the JSON string is the name between its quotes; with one, it is decoded.
    const agent = agentJson.includes('\\') ? (JSON.parse(agentJson) as string) : agentJson.slice(1, -1);
    const seqFrom = agentEnd + STATUS_SEQ_KEY.length;
    const seq = Number(source.slice(seqFrom, source.indexOf(',', seqFrom)));
    if (agents.has(agent)) return null;
    agents.add(agent);
    entries.push({ agent, seq });
  }
  return entries;
}
