/**
 * Annotation keys of a degraded summary (DESIGN §3): a plain `llm` channel whose model failed, has
 * no key or spent its budget gets the tracker's state with the heuristic report as its text, and
 * these say so. Owned by the channel composition (ChannelSummariser): set by its `degrade`, removed
 * by the next successful strategy run.
 */
export const DEGRADED_KEYS = Object.freeze({
  degraded: 'degraded',
  reason: 'degradedReason',
});
export const DEGRADED_TRUE = 'true';

/** The longest reason kept in `degradedReason` (an SDK error body must not bloat annotations); `lastError` keeps it whole. */
export const DEGRADED_REASON_MAX_CHARS = 200;

/** One line, at most DEGRADED_REASON_MAX_CHARS. */
export function degradedReason(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim() || 'unknown error';
  return line.length > DEGRADED_REASON_MAX_CHARS ? line.slice(0, DEGRADED_REASON_MAX_CHARS - 1) + '…' : line;
}
