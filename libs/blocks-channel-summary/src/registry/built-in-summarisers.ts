/** Names of the strategies every registry provides (DESIGN §3). */
export const BUILT_IN_SUMMARISERS = Object.freeze({
  heuristic: 'heuristic',
  verbatim: 'verbatim',
  llm: 'llm',
  tiered: 'tiered',
});

export const BUILT_IN_SUMMARISER_NAMES: readonly string[] = Object.freeze(Object.values(BUILT_IN_SUMMARISERS));

/** The strategy a channel gets when it names none. */
export const DEFAULT_SUMMARISER_NAME = BUILT_IN_SUMMARISERS.heuristic;

/** Why the `llm` strategy is unavailable without a key (shown to API users). */
export const LLM_UNAVAILABLE_REASON = 'ANTHROPIC_API_KEY is not set';
/** Reason given for a registered strategy that reports `available === false` without saying why. */
export const GENERIC_UNAVAILABLE_REASON = 'summariser is unavailable';
