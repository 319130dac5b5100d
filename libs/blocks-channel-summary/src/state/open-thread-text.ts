/**
 * The text form of the two open-thread keys, one entry per line:
 *
 *   openThreads        [\n{"correlationId":…,"type":…,"sender":…,"seq":4},\n{…}\n]
 *   openThreadDetails  {\n"4":{"target":…,"topic":…,"at":…,"text":…},\n"9":{…}\n}
 *
 * Plain JSON still (a reader just parses it), with the i-th detail belonging to the i-th thread.
 * JSON.stringify never writes a raw newline, nor an unescaped quote, inside a value, so in this
 * text `,\n` only ever separates entries and `{"correlationId":"c-5","type":` only ever starts
 * the entry of thread c-5. The tracker can therefore count, find and cut out entries without
 * parsing the text: a job costs what its batch touches, not what the channel keeps open
 * (up to OPEN_THREADS_CAP entries, ~50 KB, which took ~0.8 ms per call to parse and re-encode).
 */

import { EMPTY_LIST, LIST_CLOSE, LIST_OPEN, SEPARATOR } from './line-list';

/** The separator's second character, searched for alone (see entryStarts). */
const NEWLINE = '\n';
const DETAILS_OPEN = '{\n';
const DETAILS_CLOSE = '\n}';
const EMPTY_DETAILS = '{}';
const THREAD_HEAD = '{"correlationId":';
const DETAIL_HEAD = '"';
const ENTRY_TAIL = '}';
/**
 * Text searches (a few µs each at the cap) after which the entries are indexed instead (one parse
 * of `openThreads`, ~100 µs at the cap): a batch of the default threshold searches a handful of
 * times, a large batch (a backlog caught up in chunks) would otherwise search once per request.
 */
const INDEX_AFTER_SEARCHES = 32;

interface EntryIndex {
  readonly byCorrelationId: ReadonlyMap<string, number>;
  readonly bySeq: ReadonlyMap<number, number>;
}

/** `openThreadDetails` from entry texts (`openThreads` is joined by joinLines, line-list.ts). */
export function joinOpenDetails(pieces: readonly string[]): string {
  return pieces.length === 0 ? EMPTY_DETAILS : DETAILS_OPEN + pieces.join(SEPARATOR) + DETAILS_CLOSE;
}

/** One `openThreadDetails` entry: the detail object under its thread's seq. */
export function detailEntry(seq: number, detailJson: string): string {
  return `"${seq}":${detailJson}`;
}

/**
 * The two keys as written by joinLines / joinOpenDetails, indexed by entry. `parse` returns
 * null for anything else (an older compact encoding, another writer's value, a mismatch between
 * the two keys): the caller then decodes it the slow way, by JSON.parse.
 */
export class OpenThreadText {
  private searches = 0;
  /** Built after INDEX_AFTER_SEARCHES; null when the text does not parse whole (it is then searched). */
  private index: EntryIndex | null | undefined;

  private constructor(
    private readonly threads: string,
    private readonly details: string,
    /** Offset in `threads` / `details` where entry i starts. */
    private readonly threadStarts: readonly number[],
    private readonly detailStarts: readonly number[],
  ) {}

  static parse(threads: string | undefined, details: string | undefined): OpenThreadText | null {
    if (threads === EMPTY_LIST && (details === undefined || details === EMPTY_DETAILS)) return new OpenThreadText(threads, EMPTY_DETAILS, [], []);
    if (threads === undefined || details === undefined) return null;
    const threadStarts = entryStarts(threads, LIST_OPEN, LIST_CLOSE, THREAD_HEAD);
    const detailStarts = threadStarts && entryStarts(details, DETAILS_OPEN, DETAILS_CLOSE, DETAIL_HEAD);
    if (!threadStarts || !detailStarts || threadStarts.length !== detailStarts.length) return null;
    return new OpenThreadText(threads, details, threadStarts, detailStarts);
  }

  get count(): number {
    return this.threadStarts.length;
  }

  /** The entry of the thread with this correlation id, or -1. */
  indexOfCorrelationId(correlationId: string): number {
    const index = this.indexed();
    if (index) return index.byCorrelationId.get(correlationId) ?? -1;
    const at = this.threads.indexOf(`${THREAD_HEAD}${JSON.stringify(correlationId)},"type":`);
    return at < 0 ? -1 : entryAt(this.threadStarts, at);
  }

  /** The entry of the thread whose request has this seq, or -1. */
  indexOfSeq(seq: number): number {
    const index = this.indexed();
    if (index) return index.bySeq.get(seq) ?? -1;
    const at = this.threads.indexOf(`,"seq":${seq}${ENTRY_TAIL}`);
    return at < 0 ? -1 : entryAt(this.threadStarts, at);
  }

  /** The entry index once searches have passed INDEX_AFTER_SEARCHES (entry i is the i-th array element). */
  private indexed(): EntryIndex | null | undefined {
    if (this.index !== undefined || ++this.searches <= INDEX_AFTER_SEARCHES) return this.index;
    const byCorrelationId = new Map<string, number>();
    const bySeq = new Map<number, number>();
    let entries: unknown;
    try {
      entries = JSON.parse(this.threads);
    } catch {
      entries = [];
    }
    const list = Array.isArray(entries) && entries.length === this.count ? (entries as { correlationId?: unknown; seq?: unknown }[]) : [];
    list.forEach((e, i) => {
      if (typeof e?.correlationId === 'string' && !byCorrelationId.has(e.correlationId)) byCorrelationId.set(e.correlationId, i);
      if (typeof e?.seq === 'number' && !bySeq.has(e.seq)) bySeq.set(e.seq, i);
    });
    // A text that does not parse whole keeps being searched (its readable entries stay findable).
    this.index = list.length === this.count ? { byCorrelationId, bySeq } : null;
    return this.index;
  }

  /** The `openThreads` entry i: exactly JSON.stringify of its contract object. */
  threadJson(i: number): string {
    return this.threads.slice(this.threadStarts[i], entryEnd(this.threads, this.threadStarts, i, LIST_CLOSE));
  }

  /** The `openThreadDetails` entry i: `"<seq>":{…}`. */
  detailEntry(i: number): string {
    return this.details.slice(this.detailStarts[i], entryEnd(this.details, this.detailStarts, i, DETAILS_CLOSE));
  }

  /** Entries first..last (inclusive) of `openThreads`, separators included: one piece for joinLines. */
  threadRun(first: number, last: number): string {
    return this.threads.slice(this.threadStarts[first], entryEnd(this.threads, this.threadStarts, last, LIST_CLOSE));
  }

  /** As threadRun, for `openThreadDetails`. */
  detailRun(first: number, last: number): string {
    return this.details.slice(this.detailStarts[first], entryEnd(this.details, this.detailStarts, last, DETAILS_CLOSE));
  }
}

/**
 * Start offsets of the entries of `text` in the one-per-line form, or null when it is not in it.
 * Checks the frame and that every entry starts with `head` and ends with `}` — a cheap guard
 * against a value in another form; an entry's own content is validated when it is read.
 */
function entryStarts(text: string, open: string, close: string, head: string): number[] | null {
  if (!text.startsWith(open) || !text.endsWith(ENTRY_TAIL + close) || !text.startsWith(head, open.length)) return null;
  const starts = [open.length];
  // Searches for the newline alone: a one-character search runs at memchr speed, while `,\n`
  // stops at every comma of the JSON (several per entry). Any newline past the opening one is a
  // separator's or the closing one's (no value holds a raw newline).
  const last = text.length - close.length;
  for (let at = text.indexOf(NEWLINE, open.length); at >= 0 && at < last; at = text.indexOf(NEWLINE, at + 1)) {
    if (text[at - 1] !== SEPARATOR[0] || text[at - 2] !== ENTRY_TAIL || !text.startsWith(head, at + 1)) return null;
    starts.push(at + 1);
  }
  return starts;
}

function entryEnd(text: string, starts: readonly number[], i: number, close: string): number {
  return i + 1 < starts.length ? starts[i + 1] - SEPARATOR.length : text.length - close.length;
}

/** The entry containing offset `at`: the last start at or before it (binary search). */
function entryAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
