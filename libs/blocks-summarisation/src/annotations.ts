import { SummaryResult } from '@qhorus/api';

/** Annotation keys the generic summarisers own. Values are always strings. */
export const ANNOTATION_TIER = 'tier';
export const ANNOTATION_ITEM_COUNT = 'itemCount';
export const ANNOTATION_MODEL = 'model';
/** The LLM tier's model provider (`anthropic`, `openai`, or a custom client's name), next to `model`. */
export const ANNOTATION_PROVIDER = 'provider';
export const ANNOTATION_TIER_FALLBACK = 'tierFallback';
/** `"true"` when this version's text was cut to the text cap (see text-cap.ts); absent otherwise. */
export const ANNOTATION_TEXT_TRUNCATED = 'textTruncated';
export const TEXT_TRUNCATED = 'true';

/** Values of the `tier` annotation written by the tiers of this library. */
export const TIER_VERBATIM = 'verbatim';
export const TIER_GROUPED = 'grouped';
export const TIER_SYNTHESISED = 'synthesised';

/**
 * The annotation contract in one place: start from the previous annotations and overlay only
 * the keys the caller owns. Keys set by other tiers or by other code are carried forward
 * untouched, so a tier change never drops accumulated state.
 */
export function overlayAnnotations(
  previous: SummaryResult | null | undefined,
  own: Record<string, string>,
): Record<string, string> {
  return { ...(previous?.annotations ?? {}), ...own };
}

/**
 * Removes keys the caller itself owns (never use it on keys written by others). Used to clear
 * a stale marker rather than overlaying an empty string, which would read as "set, but blank".
 */
export function withoutAnnotations(annotations: Readonly<Record<string, string>>, ownKeys: readonly string[]): Record<string, string> {
  const copy: Record<string, string> = { ...annotations };
  for (const key of ownKeys) delete copy[key];
  return copy;
}

/** Sets the cut flag when `truncated`, removes it otherwise (a flag describes this version's text). */
export function withTruncationFlag(annotations: Readonly<Record<string, string>>, truncated: boolean): Record<string, string> {
  if (truncated) return { ...annotations, [ANNOTATION_TEXT_TRUNCATED]: TEXT_TRUNCATED };
  return ANNOTATION_TEXT_TRUNCATED in annotations ? withoutAnnotations(annotations, [ANNOTATION_TEXT_TRUNCATED]) : { ...annotations };
}
