/**
 * SSE event ids (DESIGN §6): `message.posted` carries its seq; `summary.updated` carries
 * `<seq>s<version>`, where seq is the stream's position — the last message it had delivered when
 * the summary was sent, which is the summary's coversThroughSeq when the stream is caught up to
 * the watermark — so a client reconnecting with either id as Last-Event-ID resumes exactly after
 * the last message it received (neither gap nor duplicate), and is sent the summary again only if
 * a newer version exists.
 */
export const messageEventId = (seq: number): string => String(seq);
export const summaryEventId = (seq: number, version: number): string => `${seq}s${version}`;

/** Where a stream starts: after this seq, and whether (and above which version) to send the current summary first. */
export interface StreamResume {
  afterSeq: number;
  /** Replay the current summary when its version is above this; null: do not (a fresh live stream). */
  summaryAfterVersion: number | null;
}

const SEQ = /^(0|[1-9]\d{0,15})$/;
const SUMMARY_ID = /^(0|[1-9]\d{0,15})s(0|[1-9]\d{0,9})$/;

/**
 * Reads a Last-Event-ID: a seq ("42": replay the messages after it, then the current summary,
 * since its version is not known) or a summary id ("40s3": the messages after 40, then the
 * summary if newer than version 3). Null when it is neither.
 */
export function parseLastEventId(raw: string): StreamResume | null {
  const id = raw.trim();
  if (SEQ.test(id)) return safe(Number(id), 0);
  const m = SUMMARY_ID.exec(id);
  return m ? safe(Number(m[1]), Number(m[2])) : null;
}

const safe = (afterSeq: number, summaryAfterVersion: number): StreamResume | null =>
  Number.isSafeInteger(afterSeq) ? { afterSeq, summaryAfterVersion } : null;
