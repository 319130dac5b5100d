/** Around each match in a snippet (plain text, as ts_headline's StartSel/StopSel). */
export const MATCH_START = '«';
export const MATCH_END = '»';
export const ELLIPSIS = '…';

/** ts_headline's options: up to two fragments around matches, a bounded number of words each. */
export const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=20, MinWords=6, ShortWord=2, MaxFragments=2, FragmentDelimiter=" ${ELLIPSIS} "`;

/**
 * The snippet within `maxChars` characters (code points): ts_headline bounds words, not their
 * length, and one "word" can be long. A cut inside a marked match closes the mark.
 */
export function boundSnippet(snippet: string, maxChars: number): string {
  const chars = [...snippet];
  if (chars.length <= maxChars) return snippet;
  let cut = chars.slice(0, maxChars - 2).join('');
  if (cut.lastIndexOf(MATCH_START) > cut.lastIndexOf(MATCH_END)) cut += MATCH_END;
  return `${cut}${ELLIPSIS}`;
}
