import { DEFAULT_SUMMARY_TEXT_MAX_CHARS, validateTextMaxChars } from './text-cap';

/** Output budget of one summary call: a few paragraphs of state, not a transcript. */
export const DEFAULT_LLM_MAX_TOKENS = 1024;
/** Per-request deadline; the job queue retries, so a stuck call must not hold the job. */
export const DEFAULT_LLM_TIMEOUT_MS = 60_000;
/** The job queue owns retries (with backoff); the SDK must not retry underneath it. */
export const LLM_MAX_RETRIES = 0;

export interface LlmSummariserOptions {
  /** The model id the provider knows, e.g. from QHORUS_LLM_MODEL. */
  model: string;
  /** Default DEFAULT_LLM_MAX_TOKENS. */
  maxTokens?: number;
  /**
   * @deprecated Accepted for compatibility and ignored. API version 2026-10-21 (sent by
   * `@anthropic-ai/sdk` ≥ 1.0) rejects `temperature`, `top_p` and `top_k` with HTTP 400, even
   * at their default values, and the SDK no longer types them; sending it would break every call.
   */
  temperature?: number;
  /** Default DEFAULT_LLM_TIMEOUT_MS. Enforced by the SDK and by the summariser itself. */
  timeoutMs?: number;
  /** The text cap (see text-cap.ts). Default DEFAULT_SUMMARY_TEXT_MAX_CHARS. */
  maxChars?: number;
  /** What to say when there is no client (which setting gives it a key). Default DEFAULT_LLM_UNAVAILABLE_REASON. */
  unavailableReason?: string;
}

export const DEFAULT_LLM_UNAVAILABLE_REASON = 'no model client (no API key is set)';

/** The options with every default applied. */
export interface ResolvedLlmSummariserOptions {
  readonly model: string;
  readonly maxTokens: number;
  readonly timeoutMs: number;
  readonly maxChars: number;
  readonly unavailableReason: string;
}

export function resolveLlmSummariserOptions(options: LlmSummariserOptions): ResolvedLlmSummariserOptions {
  if (!options.model || options.model.trim() === '') throw new RangeError('LlmSummariserOptions.model is required');
  const maxTokens = options.maxTokens ?? DEFAULT_LLM_MAX_TOKENS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError(`maxTokens must be a positive integer (got ${maxTokens})`);
  if (!(timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive (got ${timeoutMs})`);
  const maxChars = validateTextMaxChars(options.maxChars ?? DEFAULT_SUMMARY_TEXT_MAX_CHARS);
  return { model: options.model, maxTokens, timeoutMs, maxChars, unavailableReason: options.unavailableReason ?? DEFAULT_LLM_UNAVAILABLE_REASON };
}
