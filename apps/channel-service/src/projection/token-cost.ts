import { estimateTokens } from '@qhorus/blocks-summarisation';
import { UNIT_OVERHEAD_TOKENS } from './projection-limits';

/** What one text unit (a message, a content block, a paragraph) costs against maxTokens. */
export function unitCost(text: string): number {
  return estimateTokens(text) + UNIT_OVERHEAD_TOKENS;
}

/**
 * `head + body` when it fits `budget`; otherwise `head + (the longest start of body) + tail`
 * that fits, cut on a character boundary (never inside a surrogate pair). `tail` is the visible
 * truncation marker. When not even `head + tail` fits, the shortest non-blank form is returned:
 * the head alone, else the tail alone (callers budget for those).
 */
export function fitText(head: string, body: string, tail: string, budget: number): string {
  const whole = head + body;
  if (unitCost(whole) <= budget) return whole;
  const chars = Array.from(body);
  const candidate = (length: number) => head + chars.slice(0, length).join('').trimEnd() + tail;
  if (unitCost(candidate(0)) > budget) return head.trim() ? head.trimEnd() : tail.trim();
  // estimateTokens never decreases as the kept start grows, so the longest fit is a binary search.
  let fits = 0;
  let fails = chars.length;
  while (fails - fits > 1) {
    const mid = (fits + fails) >>> 1;
    if (unitCost(candidate(mid)) <= budget) fits = mid;
    else fails = mid;
  }
  return candidate(fits);
}
