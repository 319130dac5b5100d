import OpenAI, { APIConnectionTimeoutError, APIError } from 'openai';
import { LLM_MAX_RETRIES } from './llm-summariser-options';
import { ModelAnswer, ModelCallError, ModelClient, ModelRequest, nonEmpty } from './model-client';
import { withoutSecret } from './secret-scrub';

export const OPENAI_PROVIDER = 'openai';

/**
 * `finish_reason` values that mean "the model finished its answer": OpenAI's `stop`, and the words
 * some OpenAI-compatible servers use for it (`eos_token`: Hugging Face TGI before 2.2, watsonx;
 * `eos`: Together). `length` (the token limit, reasoning tokens included), `content_filter`, tool
 * calls, `abort` (vLLM, SGLang) or any other word are not a summary. Some servers send no finish
 * reason: that counts as finished.
 */
export const OPENAI_ACCEPTED_FINISH_REASONS: ReadonlySet<string> = new Set(['stop', 'eos_token', 'eos']);

/**
 * The Chat Completions wire format through the official `openai` SDK, so any OpenAI-compatible
 * server works (OpenAI, vLLM, Ollama, llama.cpp's server, LiteLLM): a system and a user message,
 * `max_completion_tokens`, no sampling parameters, one JSON answer (no streaming: the deadline
 * bounds the whole call either way, and every compatible server answers JSON).
 */
export class OpenAiModelClient implements ModelClient {
  readonly provider = OPENAI_PROVIDER;

  constructor(private readonly client: OpenAI) {}

  async complete({ model, system, prompt, maxTokens, timeoutMs, signal }: ModelRequest): Promise<ModelAnswer> {
    let completion: OpenAI.Chat.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model,
          max_completion_tokens: maxTokens,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: prompt },
          ],
        },
        { timeout: timeoutMs, maxRetries: LLM_MAX_RETRIES, signal },
      );
    } catch (error) {
      if (error instanceof APIConnectionTimeoutError) throw new ModelCallError('the SDK timed out', true);
      // No `cause`, the key scrubbed: as in the Anthropic adapter, an echoing proxy must not leak it.
      throw new ModelCallError(withoutSecret(describe(error), this.client.apiKey));
    }
    const choice = completion.choices?.[0];
    const finish = choice?.finish_reason as string | null | undefined;
    return {
      // Only the answer's content is the summary (a reasoning server's thinking is not).
      text: typeof choice?.message?.content === 'string' ? choice.message.content : '',
      model: nonEmpty(completion.model, model),
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
      incomplete: choice === undefined ? 'no choices in the answer' : finish && !OPENAI_ACCEPTED_FINISH_REASONS.has(finish) ? `finish_reason=${finish}` : null,
    };
  }
}

/** "HTTP 500 server_error: boom" for API errors (status, the error's type and message), else the message. */
function describe(error: unknown): string {
  if (error instanceof APIError && error.status !== undefined) {
    const body = error.error as { type?: unknown; message?: unknown } | undefined;
    const type = typeof body?.type === 'string' && body.type !== '' ? `${body.type}: ` : '';
    const detail = typeof body?.message === 'string' ? body.message : error.message;
    return `HTTP ${error.status} ${type}${detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}
