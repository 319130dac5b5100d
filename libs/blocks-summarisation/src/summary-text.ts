import { SummaryResult } from '@qhorus/api';

/** Separates the previous text from what a batch adds: one blank line. */
export const SECTION_SEPARATOR = '\n\n';

/** The previous text, or '' before the first summary. */
export function previousText(previous: SummaryResult | null | undefined): string {
  return previous?.text ?? '';
}

/**
 * Appends a section to the previous text without touching it: the previous text stays a
 * byte-identical prefix. No leading blank line when there is no previous text.
 */
export function appendSection(previous: string, section: string): string {
  if (section === '') return previous;
  return previous === '' ? section : previous + SECTION_SEPARATOR + section;
}

/** First section of a text whose oldest sections were folded away: how many there were. */
export function foldedSectionsMarker(count: number): string {
  return `… ${count} earlier ${count === 1 ? 'section' : 'sections'} left out to stay within the length limit`;
}
const FOLDED_MARKER = /^… (\d+) earlier sections? left out to stay within the length limit$/;

/** Room the fold marker may take (a count of up to 12 digits), separator included. */
export const FOLD_MARKER_RESERVE = foldedSectionsMarker(1e11).length + SECTION_SEPARATOR.length;

/**
 * `previous` with its oldest sections (separated by SECTION_SEPARATOR) folded away until
 * `previous + separator + room` characters fit in `maxChars`. What was folded is counted in a
 * first section (the count accumulates over calls); newer sections stay byte-identical.
 * Returns `previous` itself when it already leaves the room.
 */
export function foldOldestSections(previous: string, room: number, maxChars: number): string {
  const budget = maxChars - room - SECTION_SEPARATOR.length;
  if (previous.length <= budget) return previous;
  const sections = previous.split(SECTION_SEPARATOR);
  const marked = FOLDED_MARKER.exec(sections[0]);
  const first = marked ? 1 : 0;
  // The newest sections that fit next to the marker stay (cost: each with a separator); the rest fold.
  let oldestKept = sections.length;
  let used = FOLD_MARKER_RESERVE;
  while (oldestKept > first && used + sections[oldestKept - 1].length + SECTION_SEPARATOR.length <= budget) {
    used += sections[oldestKept - 1].length + SECTION_SEPARATOR.length;
    oldestKept--;
  }
  const folded = (marked ? Number(marked[1]) : 0) + (oldestKept - first);
  const rest = sections.slice(oldestKept);
  return [foldedSectionsMarker(folded), ...rest].join(SECTION_SEPARATOR);
}
