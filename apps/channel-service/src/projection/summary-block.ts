import { SUMMARY_MAX_SHARE } from './projection-limits';
import { fitText } from './token-cost';

/** The stored summary fields the block is built from, and nothing else (no clock, no viewer). */
export interface StoredSummary {
  text: string;
  version: number;
  coversThroughSeq: number;
}

export const SUMMARY_TRUNCATED_MARKER = ' … [summary cut to fit maxTokens; get_channel_summary returns it whole]';

/** The first line of the block: which seqs the summary covers and how to read them verbatim. */
export function summaryMarker(s: StoredSummary): string {
  if (s.version === 0) return `[No channel summary yet; messages from seq ${s.coversThroughSeq + 1} follow.]`;
  if (s.coversThroughSeq === 0) return `[Channel summary (v${s.version}); it covers no messages yet.]`;
  return `[Summary of messages 1–${s.coversThroughSeq} (v${s.version}). Expand with check_messages after_seq=0.]`;
}

/**
 * The summary block, first in every projection. It depends only on the stored summary and on
 * maxTokens (its cap is SUMMARY_MAX_SHARE of it), so it is byte-identical across calls until
 * the summary version changes, and a provider's prompt cache on it stays warm.
 */
export function renderSummaryBlock(s: StoredSummary, maxTokens: number): string {
  const marker = summaryMarker(s);
  const text = s.text.trim();
  if (!text) return marker;
  return fitText(`${marker}\n`, text, SUMMARY_TRUNCATED_MARKER, summaryCap(maxTokens));
}

export function summaryCap(maxTokens: number): number {
  return Math.floor(maxTokens * SUMMARY_MAX_SHARE);
}
