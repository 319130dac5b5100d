import { SummaryResult } from '@qhorus/api';

/** Per-call context a summariser may use; tiers that have no use for a field ignore it. */
export interface SummariseOptions {
  /**
   * What the summarised stream is for (for a channel: its description). The LLM tier grounds
   * its prompt on it; the verbatim and heuristic tiers ignore it.
   */
  preamble?: string | null;
  /**
   * Aborted when the caller gives up on this call (e.g. the summary job's timeout): stop and
   * reject. The LLM tier passes it to the SDK request; a summariser may ignore it (the caller
   * then waits a bounded time for the call to end before retrying).
   */
  signal?: AbortSignal;
  /**
   * Facts the text must agree with, as plain lines the caller rendered (for a channel: its open
   * requests, decisions and participants, from the state tracker). The LLM tier puts them in its
   * prompt as authoritative; tiers that write no prose ignore them.
   */
  grounding?: readonly GroundingSection[] | null;
  /**
   * The text cap the caller holds the result to (for a channel: QHORUS_SUMMARY_TEXT_MAX_CHARS).
   * A longer text is cut at a line boundary and flagged, so a tier that can shorten its own text
   * (the heuristic's report) should stay within it.
   */
  maxChars?: number;
}

/** One titled list of grounding facts, e.g. `{ title: 'Open requests (2)', lines: ['#4 QUERY …'] }`. */
export interface GroundingSection {
  readonly title: string;
  readonly lines: readonly string[];
}

/**
 * Summarises a batch of items, continuing from the previous result.
 *
 * Annotation contract: an implementation starts from `previous.annotations` and overlays only
 * the keys it owns (see `overlayAnnotations`), so keys accumulated by other tiers or written by
 * other code survive. A summariser that cannot produce a summary rejects; it never resolves
 * with an empty text in place of a failure.
 */
export interface ContentSummariser<T> {
  summarise(items: readonly T[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult>;
}

/** Renders one item as a single line of text for verbatim lists and prompts. */
export type ItemRenderer<T> = (item: T) => string;
