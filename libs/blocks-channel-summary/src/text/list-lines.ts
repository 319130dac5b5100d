import { BoundedTextBuilder } from './bounded-text-builder';
import { ELLIPSIS, excerpt } from './excerpt';

/** The line that says how many list items were left out. */
export function moreLine(omitted: number, indent = '- '): string {
  return `${indent}${ELLIPSIS} and ${omitted} more`;
}

/** Cuts a line to `cap` characters, visibly (with "…"). */
export function fitLine(line: string, cap: number): string {
  return excerpt(line, cap);
}

/**
 * `label: a, b, c, … and N more` within `cap` characters: items are added whole while they fit,
 * keeping room for the "… and N more" tail.
 */
export function inlineList(label: string, items: readonly string[], cap: number): string {
  const head = `${label}: `;
  if (items.length === 0) return `${head}none`;
  let line = head;
  let shown = 0;
  for (const item of items) {
    const piece = (shown === 0 ? '' : ', ') + item;
    const left = items.length - shown - 1;
    const tail = left > 0 ? `, ${ELLIPSIS} and ${left} more` : '';
    if (line.length + piece.length + tail.length > cap) break;
    line += piece;
    shown++;
  }
  if (shown === items.length) return line;
  const tail = `${shown === 0 ? '' : ', '}${ELLIPSIS} and ${items.length - shown} more`;
  return line + tail;
}

/**
 * A heading and its item lines, to be written within a character budget. Items are rendered on
 * demand (`item(i)`), so a long list costs only the lines that are actually shown.
 */
export interface ListSection {
  readonly heading: string;
  readonly size: number;
  item(index: number): string;
}

/**
 * Writes a section's heading and as many whole items as fit in `budget` characters, then
 * "… and N more" for the rest (room for that line is always kept). Returns the characters used.
 */
export function writeListSection(out: BoundedTextBuilder, section: ListSection, budget: number): number {
  const { heading, size } = section;
  let used = BoundedTextBuilder.cost(heading);
  const firstReserve = size > 0 ? BoundedTextBuilder.cost(moreLine(size)) : 0;
  if (used + firstReserve > budget || !out.tryAdd(heading)) return 0;
  let shown = 0;
  while (shown < size) {
    const item = section.item(shown);
    const left = size - shown - 1;
    const reserve = left > 0 ? BoundedTextBuilder.cost(moreLine(left)) : 0;
    const cost = BoundedTextBuilder.cost(item);
    if (used + cost + reserve > budget || !out.tryAdd(item)) break;
    used += cost;
    shown++;
  }
  if (shown < size) {
    const more = moreLine(size - shown);
    if (out.tryAdd(more)) used += BoundedTextBuilder.cost(more);
  }
  return used;
}
