/** How the LLM tier treats the previous summary. */
export enum LlmSummaryMode {
  /** Rewrite the whole summary, integrating the new items (bounded size, may rephrase). */
  EDIT = 'EDIT',
  /** Add an update section; the previous text is kept byte-identical as a prefix. */
  APPEND = 'APPEND',
}
