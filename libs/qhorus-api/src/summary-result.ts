/** What a summariser returns and what the summary slot stores. Annotations are opaque strings. */
export interface SummaryResult {
  readonly text: string;
  readonly annotations: Readonly<Record<string, string>>;
}

/** Builds an immutable SummaryResult; a missing annotation map becomes `{}`. */
export function summaryResult(text: string, annotations?: Record<string, string> | null): SummaryResult {
  return Object.freeze({ text, annotations: Object.freeze({ ...(annotations ?? {}) }) });
}

export const EMPTY_SUMMARY: SummaryResult = summaryResult('', {});
