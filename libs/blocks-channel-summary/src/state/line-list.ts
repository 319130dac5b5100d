/**
 * A JSON array written one entry per line, the form of the tracker's list keys (`recentClosures`,
 * `decisions`, `latestStatus`; `openThreads` uses the same frame, see open-thread-text.ts):
 *
 *   [\n{…},\n{…}\n]      or   []   when empty
 *
 * Plain JSON still: a foreign reader just parses it. The tracker instead checks each entry against
 * the canonical form of its kind (a sticky RegExp, see canonical-entry.ts: exactly what
 * JSON.stringify writes for a valid record, in key order), which costs a fraction of a JSON.parse
 * and allocates nothing. A text that passes is valid JSON whose entries all read as records, so an
 * entry the batch leaves alone is copied as text, never parsed and stringified again; only the
 * few the report shows are parsed. Anything else (an older compact encoding, another writer's
 * value, a malformed entry) is decoded the slow way, by JSON.parse, with the usual tolerance.
 */

/** The frame of the one-per-line form, shared with the open-thread keys (open-thread-text.ts). */
export const LIST_OPEN = '[\n';
export const LIST_CLOSE = '\n]';
export const SEPARATOR = ',\n';
export const EMPTY_LIST = '[]';

/** The array of entry texts (a piece may be a run of several entries, already separated). */
export function joinLines(pieces: readonly string[]): string {
  return pieces.length === 0 ? EMPTY_LIST : LIST_OPEN + pieces.join(SEPARATOR) + LIST_CLOSE;
}

/** A list key in the one-per-line form, every entry checked canonical; entries read by index. */
export class LineListText {
  private constructor(
    private readonly text: string,
    /** Offset where entry i starts; entry i ends where entry i+1's separator starts. */
    private readonly starts: readonly number[],
  ) {}

  static readonly EMPTY = new LineListText(EMPTY_LIST, []);

  /**
   * The list, or null when `text` is not in the one-per-line form with every entry matching
   * `entry` (a sticky RegExp matching one whole canonical entry).
   */
  static parse(text: string | undefined, entry: RegExp): LineListText | null {
    if (text === EMPTY_LIST) return LineListText.EMPTY;
    if (text === undefined || !text.startsWith(LIST_OPEN)) return null;
    const starts: number[] = [];
    for (let at = LIST_OPEN.length; ; at += SEPARATOR.length) {
      entry.lastIndex = at;
      if (!entry.test(text)) return null;
      starts.push(at);
      at = entry.lastIndex;
      if (text.startsWith(SEPARATOR, at)) continue;
      return at === text.length - LIST_CLOSE.length && text.endsWith(LIST_CLOSE) ? new LineListText(text, starts) : null;
    }
  }

  get count(): number {
    return this.starts.length;
  }

  /** Offset where entry i starts (entries are searched by callers that know their canonical form). */
  start(i: number): number {
    return this.starts[i];
  }

  /** Entry i's text: the canonical JSON of one record. */
  entry(i: number): string {
    return this.text.slice(this.starts[i], this.end(i));
  }

  /** Entries first..last (inclusive), separators included: one piece for joinLines. */
  run(first: number, last: number): string {
    return this.text.slice(this.starts[first], this.end(last));
  }

  /** The whole text (for searches within entries; see start). */
  get source(): string {
    return this.text;
  }

  private end(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1] - SEPARATOR.length : this.text.length - LIST_CLOSE.length;
  }
}

/**
 * A list after a call, oldest first, read lazily: an item is either a carried entry (by its index
 * in `carried`, copied as text, parsed only if someone looks at it) or a record of this call.
 */
export class LineListView<V> implements Iterable<V> {
  private encoded: string | undefined;
  private readonly decoded = new Map<number, V>();

  constructor(
    private readonly carried: LineListText,
    private readonly items: ReadonlyArray<number | V>,
  ) {}

  get length(): number {
    return this.items.length;
  }

  /** The i-th oldest item. */
  at(i: number): V | undefined {
    if (i < 0 || i >= this.items.length) return undefined;
    const item = this.items[i];
    if (typeof item !== 'number') return item;
    let view = this.decoded.get(item);
    if (view === undefined) {
      view = JSON.parse(this.carried.entry(item)) as V; // checked canonical: a valid record (see LineListText.parse)
      this.decoded.set(item, view);
    }
    return view;
  }

  *[Symbol.iterator](): Iterator<V> {
    for (let i = 0; i < this.items.length; i++) yield this.at(i) as V;
  }

  /** The key's value: runs of consecutive carried entries copied, this call's records stringified. */
  encode(): string {
    if (this.encoded !== undefined) return this.encoded;
    const pieces: string[] = [];
    for (let k = 0; k < this.items.length; k++) {
      const item = this.items[k];
      if (typeof item !== 'number') {
        pieces.push(JSON.stringify(item));
        continue;
      }
      let last = k;
      while (last + 1 < this.items.length && this.items[last + 1] === (this.items[last] as number) + 1) last++;
      pieces.push(this.carried.run(item, this.items[last] as number));
      k = last;
    }
    this.encoded = joinLines(pieces);
    return this.encoded;
  }
}
