/**
 * Budgets of the context projection. Token counts are `estimateTokens` estimates plus
 * UNIT_OVERHEAD_TOKENS per text unit (a message, a content block, or a paragraph of the text
 * format), so a projection "within maxTokens" is within it whatever the format.
 */

/** Most recent messages shown verbatim when the caller does not say (fewer if the budget is small). */
export const DEFAULT_KEEP_LAST = 10;
export const MAX_KEEP_LAST = 200;
export const DEFAULT_CONTEXT_MAX_TOKENS = 4000;
/** Smallest budget accepted: room for the summary marker, a digest marker and a message. */
export const MIN_CONTEXT_MAX_TOKENS = 256;
export const MAX_CONTEXT_MAX_TOKENS = 1_000_000;

/** Counted once per text unit: the role/separator a provider adds around each message. */
export const UNIT_OVERHEAD_TOKENS = 1;
/**
 * The summary block never takes more than this share of maxTokens; a longer summary is cut with
 * a marker. The cap depends on maxTokens only, so the block stays byte-identical across calls.
 */
export const SUMMARY_MAX_SHARE = 0.5;
/** Always room for the digest marker (the seq range and how to expand it). */
export const DIGEST_RESERVE_TOKENS = 64;
/** When folding, the digest aims at this share of what the summary leaves, within these bounds. */
export const DIGEST_SHARE = 0.25;
export const DIGEST_MAX_TOKENS = 800;
/** A kept message is never cut below this: room for its start and the truncation marker. */
export const MIN_TOKENS_PER_KEPT_MESSAGE = 32;
/** Newest messages after the watermark read per projection; older ones are only named by the digest. */
export const PROJECTION_TAIL_LIMIT = 2000;

/**
 * The smallest maxTokens that can hold `keepLast` messages (each possibly truncated) next to a
 * summary at its cap and a digest marker.
 */
export function requiredMaxTokens(keepLast: number): number {
  const rest = DIGEST_RESERVE_TOKENS + keepLast * MIN_TOKENS_PER_KEPT_MESSAGE;
  return Math.max(MIN_CONTEXT_MAX_TOKENS, Math.ceil(rest / (1 - SUMMARY_MAX_SHARE)));
}

/** The largest keepLast a budget can hold (the default keepLast shrinks to it). */
export function keepLastThatFits(maxTokens: number): number {
  const rest = Math.floor(maxTokens * (1 - SUMMARY_MAX_SHARE)) - DIGEST_RESERVE_TOKENS;
  return Math.max(0, Math.floor(rest / MIN_TOKENS_PER_KEPT_MESSAGE));
}
