/**
 * The provider-neutral model client the LLM tier calls (one per deployment): an adapter per
 * provider (AnthropicModelClient, OpenAiModelClient) or a domain team's own. The LLM tier owns
 * everything else — prompts, the deadline, the budget, accounting, the text cap, blank and
 * truncated answers — so they hold for every provider alike.
 */
export interface ModelClient {
  /** Names the provider in annotations (`provider`) and errors, e.g. `anthropic`, `openai`. */
  readonly provider: string;
  /**
   * One request, no retries (the job queue owns them), abandoned when `request.signal` aborts.
   * Rejects with a ModelCallError whose message is safe to show (no API key, no request body).
   */
  complete(request: ModelRequest): Promise<ModelAnswer>;
}

export interface ModelRequest {
  readonly model: string;
  readonly system: string;
  /** The one user turn. */
  readonly prompt: string;
  readonly maxTokens: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

export interface ModelAnswer {
  /** The answer's text, as the model wrote it (not trimmed); only text, never reasoning. */
  readonly text: string;
  /** The model the provider says answered (the requested one when it says nothing). */
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /**
   * Null when the model finished its answer; otherwise why it stopped, in the provider's words
   * (`stop_reason=max_tokens`, `finish_reason=length`): a cut or refused answer, not a summary.
   */
  readonly incomplete: string | null;
}

/** A model call that failed; `timedOut` when the client's own timeout ended it. */
export class ModelCallError extends Error {
  constructor(
    message: string,
    readonly timedOut = false,
  ) {
    super(message);
    this.name = 'ModelCallError';
  }
}

/** Where an adapter sends what its SDK would print on the console (deprecation notices): the app's log. */
export type ModelWarningSink = (warning: ModelWarning) => void;

export interface ModelWarning {
  readonly provider: string;
  readonly model: string | null;
  readonly message: string;
}

/** `value` when it is a non-empty string, else `fallback`. */
export function nonEmpty(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}
