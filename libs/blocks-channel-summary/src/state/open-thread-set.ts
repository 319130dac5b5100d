import { DEFAULT_TOPIC, MessageType, THREAD_OPENING_TYPES } from '@qhorus/api';
import { asNullableString, asSeq, asString, isObject, JsonObject } from './json-annotation';
import { joinLines } from './line-list';
import { detailEntry, joinOpenDetails, OpenThreadText } from './open-thread-text';
import { OpenRecord, OpenThreadView, ThreadType } from './state-records';

/** Prefix of the synthetic key of a request without correlation id (not expected: the service generates one). */
const SEQ_KEY_PREFIX = '\u0000seq:';

/** The key a thread is tracked under: its correlation id, or its request seq when it has none. */
export function threadKey(correlationId: string | null, seq: number): string {
  return correlationId ?? SEQ_KEY_PREFIX + seq;
}

/** Types an open thread may have (the opening types), as names. */
export const THREAD_TYPE_NAMES: ReadonlySet<string> = THREAD_OPENING_TYPES;

/** An open record from a decoded `openThreads` entry and its detail, or undefined when the entry is not valid. */
export function toOpenRecord(raw: unknown, detail: unknown): OpenRecord | undefined {
  if (!isObject(raw)) return undefined;
  const type = asString(raw.type);
  const sender = asString(raw.sender);
  const seq = asSeq(raw.seq);
  if (type === undefined || !THREAD_TYPE_NAMES.has(type) || sender === undefined || seq === undefined) return undefined;
  const d: JsonObject = isObject(detail) ? detail : {};
  return {
    correlationId: asNullableString(raw.correlationId),
    type: type as ThreadType,
    sender,
    seq,
    target: asNullableString(d.target),
    topic: asString(d.topic) ?? DEFAULT_TOPIC,
    at: asString(d.at) ?? '',
    text: asString(d.text) ?? '',
    threadJson: undefined,
    detailJson: undefined,
  };
}

/** Shown for an entry in the one-per-line form whose content does not decode (only a foreign writer produces one). */
const UNREADABLE_TEXT = '(unreadable entry)';

/**
 * Decodes entry i of the text. Memos are set to the entry's own JSON, so an untouched entry is
 * never re-encoded. An invalid entry reads as an open thread of unknown content (it stays listed,
 * as written, until closed or dropped), so reading never throws.
 */
function readEntry(text: OpenThreadText, i: number): OpenThreadView {
  const threadJson = text.threadJson(i);
  const detail = text.detailEntry(i);
  const raw = parseOrUndefined(threadJson);
  const seq = isObject(raw) ? asSeq(raw.seq) : undefined;
  const details = parseOrUndefined(`{${detail}}`);
  const record = seq !== undefined && isObject(details) && Object.hasOwn(details, String(seq)) ? toOpenRecord(raw, details[String(seq)]) : undefined;
  const detailJson = detail.slice(detail.indexOf(':') + 1);
  if (record) return { ...record, at: record.at as string, threadJson, detailJson }; // toOpenRecord reads `at` as a string
  return {
    correlationId: null,
    type: MessageType.QUERY,
    sender: '',
    seq: seq ?? 0,
    target: null,
    topic: DEFAULT_TOPIC,
    at: '',
    text: UNREADABLE_TEXT,
    threadJson,
    detailJson,
  };
}

function parseOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/**
 * The open threads during one call: those carried in the previous annotations' text (read only
 * where the batch touches them, see open-thread-text.ts) plus those opened by the batch (or
 * decoded from another encoding), in seq order. Entries are never mutated: closing one marks it
 * removed, a handoff replaces it in place.
 */
export class OpenThreadSet {
  /** Carried entries closed or dropped in this call. */
  private readonly removed = new Set<number>();
  /** Carried entries replaced in place (handoffs), by entry. */
  private readonly replaced = new Map<number, OpenRecord>();
  /** Carried entries decoded so far, by entry. */
  private readonly decoded = new Map<number, OpenThreadView>();
  /** Threads opened in this call (or decoded the slow way), in seq order. */
  private readonly added = new Map<string, OpenRecord>();
  /** Carried entries before this one are dropped or removed (dropOldest resumes here). */
  private dropCursor = 0;
  /** The last key searched for in the carried text and the entry found (-1: none); see carriedIndexOfKey. */
  private lastKey: string | undefined;
  private lastEntry = -1;

  constructor(private readonly carried: OpenThreadText | null = null) {}

  get size(): number {
    return (this.carried?.count ?? 0) - this.removed.size + this.added.size;
  }

  get(key: string): OpenRecord | undefined {
    const record = this.added.get(key);
    if (record !== undefined) return record;
    const i = this.carriedIndexOfKey(key);
    return i < 0 ? undefined : this.carriedRecord(i);
  }

  /** A thread not open yet (see get), appended: its seq is above every tracked one. */
  add(key: string, record: OpenRecord): void {
    this.added.set(key, record);
  }

  /** Replaces an open thread's record, keeping its place. */
  reassign(key: string, record: OpenRecord): void {
    if (this.added.has(key)) {
      this.added.set(key, record);
      return;
    }
    const i = this.carriedIndexOfKey(key);
    if (i >= 0) this.replaced.set(i, record);
  }

  close(key: string): void {
    if (this.added.delete(key)) return;
    const i = this.carriedIndexOfKey(key);
    if (i >= 0) this.removeCarried(i);
  }

  /** Drops the `count` oldest open threads. */
  dropOldest(count: number): void {
    let left = count;
    const carriedCount = this.carried?.count ?? 0;
    for (; left > 0 && this.dropCursor < carriedCount; this.dropCursor++) {
      if (this.removed.has(this.dropCursor)) continue;
      this.removeCarried(this.dropCursor);
      left--;
    }
    for (const key of this.added.keys()) {
      if (left-- <= 0) break;
      this.added.delete(key);
    }
  }

  /** The final list, the records opened or replaced in this call materialised by `materialise`. */
  seal(materialise: (record: OpenRecord) => OpenThreadView): OpenThreadList {
    const live: number[] = [];
    for (let i = 0; i < (this.carried?.count ?? 0); i++) if (!this.removed.has(i)) live.push(i);
    const replaced = new Map<number, OpenThreadView>();
    for (const [i, record] of this.replaced) replaced.set(i, materialise(record));
    return new OpenThreadList(this.carried, live, replaced, this.decoded, Array.from(this.added.values(), materialise));
  }

  private removeCarried(i: number): void {
    this.removed.add(i);
    this.replaced.delete(i);
  }

  private carriedIndexOfKey(key: string): number {
    if (this.carried === null) return -1;
    const synthetic = key.startsWith(SEQ_KEY_PREFIX);
    // A closing or a handoff looks its thread up twice (get, then close or reassign): one search.
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastEntry = synthetic ? this.carried.indexOfSeq(Number(key.slice(SEQ_KEY_PREFIX.length))) : this.carried.indexOfCorrelationId(key);
    }
    const i = this.lastEntry;
    if (i < 0 || this.removed.has(i)) return -1;
    if (synthetic && this.carriedRecord(i).correlationId !== null) return -1;
    return i;
  }

  private carriedRecord(i: number): OpenRecord {
    return this.replaced.get(i) ?? decodedEntry(this.carried as OpenThreadText, this.decoded, i);
  }
}

function decodedEntry(text: OpenThreadText, memo: Map<number, OpenThreadView>, i: number): OpenThreadView {
  let view = memo.get(i);
  if (view === undefined) {
    view = readEntry(text, i);
    memo.set(i, view);
  }
  return view;
}

/** `openThreads` entry: exactly the contract shape. Memoised on the record (see OpenRecord). */
function threadJson(v: OpenThreadView): string {
  return (v.threadJson ??= JSON.stringify({ correlationId: v.correlationId, type: v.type, sender: v.sender, seq: v.seq }));
}

/** `openThreadDetails` value of a thread. */
function detailJson(v: OpenThreadView): string {
  return (v.detailJson ??= JSON.stringify({ target: v.target, topic: v.topic, at: v.at, text: v.text }));
}

/** The two encoded keys of an open list. */
export interface EncodedOpenThreads {
  readonly openThreads: string;
  readonly openThreadDetails: string;
}

/**
 * The open threads after a call, oldest first, read lazily: an entry carried over untouched is
 * decoded only if someone looks at it (the report shows the newest few), and encoded by copying
 * its text.
 */
export class OpenThreadList implements Iterable<OpenThreadView> {
  private encodedMemo: EncodedOpenThreads | undefined;

  constructor(
    private readonly carried: OpenThreadText | null,
    /** Carried entries still open, in order. */
    private readonly live: readonly number[],
    private readonly replaced: ReadonlyMap<number, OpenThreadView>,
    private readonly decoded: Map<number, OpenThreadView>,
    private readonly added: readonly OpenThreadView[],
  ) {}

  get length(): number {
    return this.live.length + this.added.length;
  }

  /** The i-th oldest open thread. */
  at(i: number): OpenThreadView | undefined {
    if (i < 0 || i >= this.length) return undefined;
    if (i >= this.live.length) return this.added[i - this.live.length];
    const entry = this.live[i];
    return this.replaced.get(entry) ?? decodedEntry(this.carried as OpenThreadText, this.decoded, entry);
  }

  *[Symbol.iterator](): Iterator<OpenThreadView> {
    for (let i = 0; i < this.length; i++) yield this.at(i) as OpenThreadView;
  }

  /** `openThreads` and `openThreadDetails` (see open-thread-text.ts): untouched runs copied, the rest encoded. */
  encode(): EncodedOpenThreads {
    if (this.encodedMemo) return this.encodedMemo;
    const threads: string[] = [];
    const details: string[] = [];
    const text = this.carried;
    let runStart = -1;
    const flushRun = (end: number) => {
      if (runStart < 0 || text === null) return;
      threads.push(text.threadRun(this.live[runStart], this.live[end]));
      details.push(text.detailRun(this.live[runStart], this.live[end]));
      runStart = -1;
    };
    for (let k = 0; k < this.live.length; k++) {
      const entry = this.live[k];
      const replacement = this.replaced.get(entry);
      const contiguous = runStart >= 0 && this.live[k - 1] === entry - 1;
      if (replacement === undefined && contiguous) continue;
      flushRun(k - 1);
      if (replacement === undefined) {
        runStart = k;
      } else {
        threads.push(threadJson(replacement));
        details.push(detailEntry(replacement.seq, detailJson(replacement)));
      }
    }
    flushRun(this.live.length - 1);
    for (const v of this.added) {
      threads.push(threadJson(v));
      details.push(detailEntry(v.seq, detailJson(v)));
    }
    this.encodedMemo = { openThreads: joinLines(threads), openThreadDetails: joinOpenDetails(details) };
    return this.encodedMemo;
  }
}
