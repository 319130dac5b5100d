import Anthropic, { APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk';
import { ModelCallMeter, SummaryResult, summaryResult } from '@qhorus/api';
import { ANNOTATION_ITEM_COUNT, ANNOTATION_MODEL, ANNOTATION_TIER, TIER_SYNTHESISED, overlayAnnotations, withTruncationFlag } from './annotations';
import { ContentSummariser, ItemRenderer, SummariseOptions } from './content-summariser';
import { LLM_SYSTEM_PROMPTS, buildLlmUserPrompt } from './llm-prompts';
import { LLM_MAX_RETRIES, LlmSummariserOptions, ResolvedLlmSummariserOptions, resolveLlmSummariserOptions } from './llm-summariser-options';
import { LlmSummaryMode } from './llm-summary-mode';
import { SummariserUnavailableError } from './summariser-unavailable-error';
import { appendSection, FOLD_MARKER_RESERVE, foldOldestSections, previousText, SECTION_SEPARATOR } from './summary-text';
import { capText } from './text-cap';
import { withDeadline } from './with-deadline';

/**
 * Stop reasons that mean "the model finished its answer". Anything else (max_tokens, refusal,
 * context window exceeded, …) is a truncated or non-summary answer: committing it would
 * silently lose state, so it is a failure like a blank answer.
 */
export const LLM_ACCEPTED_STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'stop_sequence']);

/** A text within the cap, whether it had to be cut, and the model that wrote it. */
interface CappedAnswer {
  readonly text: string;
  readonly cut: boolean;
  readonly model: string;
}

/** In APPEND mode, each new section is asked to take at most this share of the text cap (1/N). */
export const APPEND_SECTION_SHARE = 4;

/**
 * The synthesising tier: Anthropic Messages API through the official SDK. EDIT rewrites the
 * summary; APPEND adds a section and keeps the previous text byte-identical while it fits. A
 * blank, truncated or failed answer rejects, so nothing is committed and the job queue can retry.
 *
 * Bounded by the text cap (`maxChars`): the model is asked for a text (EDIT) or a section
 * (APPEND, 1/APPEND_SECTION_SHARE of the cap) within it; before it would cross the cap, APPEND
 * folds the oldest sections away (counted in a first section); an answer longer than the cap is
 * cut at a line boundary with a marker and flagged `textTruncated` — a cut, not a failure. The
 * previous text in the prompt is never above the cap. `options.grounding` (the channel state)
 * goes into the prompt as authoritative, so the prose agrees with it.
 */
export class LlmContentSummariser<T> implements ContentSummariser<T> {
  private readonly options: ResolvedLlmSummariserOptions;

  /** `client` null means no API key: the tier is unavailable (a tiered summariser falls back). */
  constructor(
    private readonly client: Anthropic | null,
    private readonly render: ItemRenderer<T>,
    private readonly mode: LlmSummaryMode,
    options: LlmSummariserOptions,
  ) {
    this.options = resolveLlmSummariserOptions(options);
  }

  get available(): boolean {
    return this.client !== null;
  }

  async summarise(items: readonly T[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    if (this.client === null) {
      throw new SummariserUnavailableError('LLM summariser unavailable: no Anthropic client (ANTHROPIC_API_KEY is not set)');
    }
    const before = previousText(previous);
    const own = (model: string, count: number) => ({
      [ANNOTATION_TIER]: TIER_SYNTHESISED,
      [ANNOTATION_ITEM_COUNT]: String(count),
      [ANNOTATION_MODEL]: model,
    });
    // Nothing new: spend no tokens and change no text.
    if (items.length === 0) return summaryResult(before, overlayAnnotations(previous, own(this.options.model, 0)));

    const rendered = items.map((item) => this.render(item));
    await options?.modelCalls?.admit(this.options.model); // a spent budget rejects here: no call is made
    const { text, cut, model } = this.mode === LlmSummaryMode.EDIT
      ? await this.edit(this.client, before, rendered, options)
      : await this.append(this.client, before, rendered, options);
    return summaryResult(text, withTruncationFlag(overlayAnnotations(previous, own(model, items.length)), cut));
  }

  /** EDIT: the model rewrites the summary (shown within the cap) into one within the cap. */
  private async edit(client: Anthropic, before: string, rendered: string[], options?: SummariseOptions): Promise<CappedAnswer> {
    const cap = this.options.maxChars;
    const prompt = buildLlmUserPrompt(capText(before, cap).text, rendered, options?.preamble, { grounding: options?.grounding, maxAnswerChars: cap });
    const answer = await this.ask(client, prompt, options?.signal, options?.modelCalls);
    return { ...capText(answer.text, cap), model: answer.model };
  }

  /** APPEND: old sections fold to leave a section's room, the model writes the section, it is appended. */
  private async append(client: Anthropic, before: string, rendered: string[], options?: SummariseOptions): Promise<CappedAnswer> {
    const cap = this.options.maxChars;
    const sectionChars = Math.floor(cap / APPEND_SECTION_SHARE);
    const kept = foldOldestSections(before, sectionChars, cap);
    const prompt = buildLlmUserPrompt(kept, rendered, options?.preamble, { grounding: options?.grounding, maxAnswerChars: sectionChars });
    const answer = await this.ask(client, prompt, options?.signal, options?.modelCalls);
    // A section longer than asked folds more of the old text; one longer than the whole cap is cut.
    const section = capText(answer.text, cap - FOLD_MARKER_RESERVE - SECTION_SEPARATOR.length);
    return { text: appendSection(foldOldestSections(kept, section.text.length, cap), section.text), cut: section.cut, model: answer.model };
  }

  /** One request, no SDK retries, under our own deadline and the caller's signal; returns the trimmed answer text. */
  private async ask(client: Anthropic, userPrompt: string, callerSignal?: AbortSignal, meter?: ModelCallMeter): Promise<{ text: string; model: string }> {
    const { model, maxTokens, timeoutMs } = this.options;
    const controller = new AbortController();
    const signal = callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : controller.signal;
    let timedOut = false;
    const timeoutError = (cause?: unknown) => new Error(`LLM summariser timed out after ${timeoutMs} ms (model ${model})`, { cause });
    let message: Anthropic.Message;
    try {
      const request = client.messages.create(
        { model, max_tokens: maxTokens, system: LLM_SYSTEM_PROMPTS[this.mode], messages: [{ role: 'user', content: userPrompt }] },
        { timeout: timeoutMs, maxRetries: LLM_MAX_RETRIES, signal },
      );
      const abort = () => {
        timedOut = true;
        controller.abort();
      };
      message = await withDeadline(request, timeoutMs, abort, () => timeoutError());
    } catch (error) {
      // The SDK's timeout and ours race; either way the caller sees one clear timeout error.
      if (timedOut) throw error; // already our timeout error (the deadline won the race)
      if (error instanceof APIConnectionTimeoutError) throw timeoutError(error);
      // No `cause`: the SDK's error keeps the API's answer, which a proxy may fill with our own
      // request headers (the API key); the message keeps status, type and text, the key scrubbed.
      throw new Error(`LLM summariser request failed (model ${model}): ${withoutSecret(describeRequestError(error), client.apiKey)}`);
    }

    // Every answer is paid for, even one rejected below: record it first, from the API's own usage.
    await meter?.record({
      model: typeof message.model === 'string' && message.model !== '' ? message.model : model,
      inputTokens: message.usage?.input_tokens ?? 0,
      outputTokens: message.usage?.output_tokens ?? 0,
    });
    const stopReason = message.stop_reason;
    if (stopReason !== null && !LLM_ACCEPTED_STOP_REASONS.has(stopReason)) {
      throw new Error(`LLM summariser answer rejected: stop_reason=${stopReason} (model ${model}, maxTokens ${maxTokens})`);
    }
    // Only text blocks are the summary; thinking or other blocks are not.
    const text = (message.content ?? [])
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('')
      .trim();
    if (text === '') throw new Error(`LLM summariser returned a blank answer (model ${model}); nothing committed`);
    return { text, model: typeof message.model === 'string' && message.model !== '' ? message.model : model };
  }
}

/** What stands for a secret in an error text. */
export const REDACTED = '[redacted]';
/** Anthropic API keys, whoever's: never repeated from an answer (logs and `lastError` are read by others). */
const ANTHROPIC_KEY = /sk-ant-[\w-]+/g;

/** `text` with `secret` (this client's key) and anything shaped like an Anthropic key replaced by REDACTED. */
export function withoutSecret(text: string, secret: string | null | undefined): string {
  const scrubbed = secret ? text.split(secret).join(REDACTED) : text;
  return scrubbed.replace(ANTHROPIC_KEY, REDACTED);
}

/** "HTTP 500 api_error: boom" for API errors (status and the API's own message), else the message. */
function describeRequestError(error: unknown): string {
  if (error instanceof APIError && error.status !== undefined) {
    const body = error.error as { error?: { type?: unknown; message?: unknown } } | undefined;
    const type = typeof body?.error?.type === 'string' ? `${body.error.type}: ` : '';
    const detail = typeof body?.error?.message === 'string' ? body.error.message : error.message;
    return `HTTP ${error.status} ${type}${detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}
