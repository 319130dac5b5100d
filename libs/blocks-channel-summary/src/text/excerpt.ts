/** Marks a visible truncation, so a cut never goes unnoticed by the reader. */
export const ELLIPSIS = '…';

/** Collapses line breaks (and the blanks around them) into single spaces, so an item stays one line. */
export function toOneLine(text: string): string {
  // indexOf first: most messages are one line, and the regex is then never run.
  if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return text;
  return text.replace(/\s*[\r\n]+\s*/g, ' ');
}

/** One line, at most `cap` characters; a cut is marked with an ellipsis. */
export function excerpt(text: string, cap: number): string {
  const line = toOneLine(text).trim();
  if (line.length <= cap) return line;
  return line.slice(0, Math.max(0, cap - ELLIPSIS.length)).trimEnd() + ELLIPSIS;
}
