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

/** The key variable each provider falls back to when QHORUS_LLM_API_KEY is unset. */
export const PROVIDER_KEY_VARIABLES: Readonly<Record<string, string>> = Object.freeze({ anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' });

/** Why the `llm` strategy is unavailable without a key (shown to API users), naming where the key goes. */
export function llmUnavailableReason(provider: string): string {
  const fallback = PROVIDER_KEY_VARIABLES[provider];
  return `no API key is set for the ${provider} provider (QHORUS_LLM_API_KEY${fallback ? ` or ${fallback}` : ''})`;
}
/** Why the `llm` strategy is unavailable on the default (Anthropic) provider. */
export const LLM_UNAVAILABLE_REASON = llmUnavailableReason('anthropic');
/** Reason given for a registered strategy that reports `available === false` without saying why. */
export const GENERIC_UNAVAILABLE_REASON = 'summariser is unavailable';
