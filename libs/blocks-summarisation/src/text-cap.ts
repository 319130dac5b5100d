/**
 * The one cap on every summary text (DESIGN §3): strategies keep their text within it, and a text
 * that is longer anyway is cut at a line boundary with a visible marker, never silently.
 */

/** Default cap, in characters (the service's QHORUS_SUMMARY_TEXT_MAX_CHARS). */
export const DEFAULT_SUMMARY_TEXT_MAX_CHARS = 4000;
/** Smallest cap accepted: below it a marker and one rendered message no longer fit. */
export const SUMMARY_TEXT_MIN_CHARS = 200;
/** The last line of a text that was cut to the cap. */
export const TEXT_CUT_MARKER = '… [cut to fit the summary length limit]';

/** @throws RangeError unless `maxChars` is an integer ≥ SUMMARY_TEXT_MIN_CHARS */
export function validateTextMaxChars(maxChars: number): number {
  if (!Number.isInteger(maxChars) || maxChars < SUMMARY_TEXT_MIN_CHARS) {
    throw new RangeError(`summary text cap must be an integer ≥ ${SUMMARY_TEXT_MIN_CHARS} characters (got ${maxChars})`);
  }
  return maxChars;
}

export interface CappedText {
  readonly text: string;
  /** Whether anything was cut off. */
  readonly cut: boolean;
}

/**
 * `text` if it fits in `maxChars`; else its longest head ending at a line boundary that leaves
 * room for TEXT_CUT_MARKER on a line of its own (a first line longer than that is cut inside).
 */
export function capText(text: string, maxChars: number): CappedText {
  if (text.length <= maxChars) return { text, cut: false };
  const room = maxChars - TEXT_CUT_MARKER.length - 1;
  const lineEnd = text.lastIndexOf('\n', room);
  let head = lineEnd > 0 ? text.slice(0, lineEnd).trimEnd() : '';
  if (head === '') head = text.slice(0, Math.max(0, room)).trimEnd();
  return { text: head === '' ? TEXT_CUT_MARKER : `${head}\n${TEXT_CUT_MARKER}`, cut: true };
}
