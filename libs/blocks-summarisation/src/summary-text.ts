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
