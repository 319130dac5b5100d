import Anthropic, { APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { LLM_MAX_RETRIES } from './llm-summariser-options';
import { ModelAnswer, ModelCallError, ModelClient, ModelRequest, ModelWarningSink, nonEmpty } from './model-client';
import { collectConsoleWarnings } from './sdk-console-warnings';
import { withoutSecret } from './secret-scrub';

export const ANTHROPIC_PROVIDER = 'anthropic';

/**
 * Stop reasons that mean "the model finished its answer". Anything else (max_tokens, refusal,
 * context window exceeded, …) is a truncated or non-summary answer: committing it would
 * silently lose state, so it is a failure like a blank answer.
 */
export const LLM_ACCEPTED_STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'stop_sequence']);

/** The Messages API through `@anthropic-ai/sdk`. */
export class AnthropicModelClient implements ModelClient {
  readonly provider = ANTHROPIC_PROVIDER;
  /** Models whose SDK notice was already reported: once per model, not once per call. */
  private readonly warned = new Set<string>();

  constructor(
    private readonly client: Anthropic,
    private readonly onWarning?: ModelWarningSink,
  ) {}

  async complete({ model, system, prompt, maxTokens, timeoutMs, signal }: ModelRequest): Promise<ModelAnswer> {
    let message: Anthropic.Message;
    try {
      // The SDK prints its deprecation notice with console.warn, synchronously, as the call starts.
      const { result, warnings } = collectConsoleWarnings(() =>
        this.client.messages.create({ model, max_tokens: maxTokens, system, messages: [{ role: 'user', content: prompt }] }, { timeout: timeoutMs, maxRetries: LLM_MAX_RETRIES, signal }),
      );
      this.report(model, warnings);
      message = await result;
    } catch (error) {
      if (error instanceof APIConnectionTimeoutError) throw new ModelCallError('the SDK timed out', true);
      // No `cause`: the SDK's error keeps the API's answer, which a proxy may fill with our own
      // request headers (the API key); the message keeps status, type and text, the key scrubbed.
      throw new ModelCallError(withoutSecret(describe(error), this.client.apiKey));
    }
    const stopReason = message.stop_reason;
    const text = (message.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('');
    return {
      text,
      model: nonEmpty(message.model, model),
      inputTokens: message.usage?.input_tokens ?? 0,
      outputTokens: message.usage?.output_tokens ?? 0,
      incomplete: stopReason !== null && stopReason !== undefined && !LLM_ACCEPTED_STOP_REASONS.has(stopReason) ? `stop_reason=${stopReason}` : null,
    };
  }

  private report(model: string, warnings: readonly string[]): void {
    if (warnings.length === 0) return;
    if (this.warned.has(model)) return;
    this.warned.add(model);
    for (const message of warnings) {
      if (this.onWarning) this.onWarning({ provider: this.provider, model, message });
      else console.warn(message);
    }
  }
}

/** "HTTP 500 api_error: boom" for API errors (status and the API's own message), else the message. */
function describe(error: unknown): string {
  if (error instanceof APIError && error.status !== undefined) {
    const body = error.error as { error?: { type?: unknown; message?: unknown } } | undefined;
    const type = typeof body?.error?.type === 'string' ? `${body.error.type}: ` : '';
    const detail = typeof body?.error?.message === 'string' ? body.error.message : error.message;
    return `HTTP ${error.status} ${type}${detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}
