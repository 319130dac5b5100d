import { Message } from '@qhorus/api';
import { ContentSummariser, ModelWarningSink } from '@qhorus/blocks-summarisation';

/** Default tier thresholds: ≤ 5 new messages → verbatim, 6–20 → grouped (heuristic), ≥ 21 → synthesised (LLM). */
export const DEFAULT_TIERED_T1 = 5;
export const DEFAULT_TIERED_T2 = 20;

/** The model providers the LLM tier can call (QHORUS_LLM_PROVIDER). */
export const LLM_PROVIDERS = ['anthropic', 'openai'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];
export const DEFAULT_LLM_PROVIDER: LlmProviderName = 'anthropic';

/**
 * Each provider's default model: one it serves today (checked 2026-12-03: the Anthropic SDK's
 * own deprecation table does not list `claude-haiku-4-5`; OpenAI names `gpt-5.4-mini` as the
 * substitute in its 2026 deprecations). See docs/decisions.md.
 */
export const DEFAULT_LLM_MODELS: Readonly<Record<LlmProviderName, string>> = Object.freeze({
  anthropic: 'claude-haiku-4-5',
  openai: 'gpt-5.4-mini',
});

/**
 * Model used when no `llm` options are given. Without options there is no API key either, so the
 * LLM tier is unavailable and this only fills the required field; the app passes QHORUS_LLM_MODEL.
 */
export const DEFAULT_LLM_MODEL = DEFAULT_LLM_MODELS[DEFAULT_LLM_PROVIDER];

/** LLM tier modes as configured (strings, e.g. from QHORUS_LLM_MODE). */
export type ChannelSummaryLlmMode = 'EDIT' | 'APPEND';
export const DEFAULT_LLM_MODE: ChannelSummaryLlmMode = 'EDIT';

export interface ChannelSummaryLlmOptions {
  /** Which API the LLM tier speaks. Default DEFAULT_LLM_PROVIDER. */
  provider?: LlmProviderName;
  /** Unset, null or blank → no client: the `llm` strategy is unavailable and `tiered` uses its heuristic tier. */
  apiKey?: string | null;
  /** Unset or null → the SDK's default (the provider's own service). */
  baseURL?: string | null;
  /** Where SDK notices (a model's deprecation) go, once per model; default the console. */
  onWarning?: ModelWarningSink;
  model: string;
  mode: ChannelSummaryLlmMode;
  timeoutMs: number;
  maxTokens?: number;
  /** Accepted for compatibility and ignored: the LLM summariser sends no sampling parameters (the API rejects them). */
  temperature?: number;
}

export interface ChannelSummaryModuleOptions {
  /** Strategy used when a channel names none. Default 'heuristic'. Must be a registered name. */
  defaultStrategy?: string;
  /** Extra named strategies a domain team registers. They may not reuse a built-in name. */
  strategies?: Record<string, ContentSummariser<Message>>;
  /** Thresholds of the `tiered` strategy. Default DEFAULT_TIERED_T1 / DEFAULT_TIERED_T2. */
  tiered?: { t1: number; t2: number };
  llm?: ChannelSummaryLlmOptions;
  /** The one cap on every summary text, in characters (QHORUS_SUMMARY_TEXT_MAX_CHARS). Default DEFAULT_SUMMARY_TEXT_MAX_CHARS. */
  textMaxChars?: number;
}
