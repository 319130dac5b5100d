import type Anthropic from '@anthropic-ai/sdk';
import { ModelCallMeter, SummaryResult, summaryResult } from '@qhorus/api';
import { ANNOTATION_ITEM_COUNT, ANNOTATION_MODEL, ANNOTATION_PROVIDER, ANNOTATION_TIER, TIER_SYNTHESISED, overlayAnnotations, withTruncationFlag } from './annotations';
import { AnthropicModelClient } from './anthropic-model-client';
import { ContentSummariser, ItemRenderer, SummariseOptions } from './content-summariser';
import { LLM_SYSTEM_PROMPTS, buildLlmUserPrompt } from './llm-prompts';
import { LlmSummariserOptions, ResolvedLlmSummariserOptions, resolveLlmSummariserOptions } from './llm-summariser-options';
import { LlmSummaryMode } from './llm-summary-mode';
import { ModelAnswer, ModelCallError, ModelClient } from './model-client';
import { withoutSecret } from './secret-scrub';
import { SummariserUnavailableError } from './summariser-unavailable-error';
import { appendSection, FOLD_MARKER_RESERVE, foldOldestSections, previousText, SECTION_SEPARATOR } from './summary-text';
import { capText } from './text-cap';
import { withDeadline } from './with-deadline';

/** A text within the cap, whether it had to be cut, and the model that wrote it. */
interface CappedAnswer {
  readonly text: string;
  readonly cut: boolean;
  readonly model: string;
}

/** In APPEND mode, each new section is asked to take at most this share of the text cap (1/N). */
export const APPEND_SECTION_SHARE = 4;

/**
 * The synthesising tier, over any model provider (a ModelClient: the Anthropic Messages API or
 * OpenAI Chat Completions through their official SDKs, or a domain team's own). EDIT rewrites the
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
  private readonly client: ModelClient | null;

  /**
   * `client` null means no API key: the tier is unavailable (a tiered summariser falls back). An
   * `Anthropic` SDK client is accepted as it was before there were providers, and adapted.
   */
  constructor(
    client: ModelClient | Anthropic | null,
    private readonly render: ItemRenderer<T>,
    private readonly mode: LlmSummaryMode,
    options: LlmSummariserOptions,
  ) {
    this.options = resolveLlmSummariserOptions(options);
    this.client = client === null || isModelClient(client) ? client : new AnthropicModelClient(client);
  }

  /** The provider this tier calls (null without a client). */
  get provider(): string | null {
    return this.client?.provider ?? null;
  }

  get available(): boolean {
    return this.client !== null;
  }

  async summarise(items: readonly T[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    if (this.client === null) {
      throw new SummariserUnavailableError(`LLM summariser unavailable: ${this.options.unavailableReason}`);
    }
    const before = previousText(previous);
    const provider = this.client.provider;
    const own = (model: string, count: number) => ({
      [ANNOTATION_TIER]: TIER_SYNTHESISED,
      [ANNOTATION_PROVIDER]: provider,
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
  private async edit(client: ModelClient, before: string, rendered: string[], options?: SummariseOptions): Promise<CappedAnswer> {
    const cap = this.options.maxChars;
    const prompt = buildLlmUserPrompt(capText(before, cap).text, rendered, options?.preamble, { grounding: options?.grounding, maxAnswerChars: cap });
    const answer = await this.ask(client, prompt, options?.signal, options?.modelCalls);
    return { ...capText(answer.text, cap), model: answer.model };
  }

  /** APPEND: old sections fold to leave a section's room, the model writes the section, it is appended. */
  private async append(client: ModelClient, before: string, rendered: string[], options?: SummariseOptions): Promise<CappedAnswer> {
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
  private async ask(client: ModelClient, userPrompt: string, callerSignal?: AbortSignal, meter?: ModelCallMeter): Promise<{ text: string; model: string }> {
    const { model, maxTokens, timeoutMs } = this.options;
    const controller = new AbortController();
    const signal = callerSignal ? AbortSignal.any([controller.signal, callerSignal]) : controller.signal;
    let timedOut = false;
    const timeoutError = (cause?: unknown) => new Error(`LLM summariser timed out after ${timeoutMs} ms (model ${model})`, { cause });
    let answer: ModelAnswer;
    try {
      const request = client.complete({ model, system: LLM_SYSTEM_PROMPTS[this.mode], prompt: userPrompt, maxTokens, timeoutMs, signal });
      const abort = () => {
        timedOut = true;
        controller.abort();
      };
      answer = await withDeadline(request, timeoutMs, abort, () => timeoutError());
    } catch (error) {
      // The client's timeout and ours race; either way the caller sees one clear timeout error.
      if (timedOut) throw error; // already our timeout error (the deadline won the race)
      if (error instanceof ModelCallError && error.timedOut) throw timeoutError(error);
      // Adapters scrub their own key; key-shaped text is scrubbed here too, whatever the client.
      const detail = error instanceof Error ? error.message : String(error);
      throw new Error(`LLM summariser request failed (${client.provider}, model ${model}): ${withoutSecret(detail, null)}`);
    }

    // Every answer is paid for, even one rejected below: record it first, from the API's own usage.
    await meter?.record({ model: answer.model, inputTokens: answer.inputTokens, outputTokens: answer.outputTokens });
    if (answer.incomplete !== null) {
      throw new Error(`LLM summariser answer rejected: ${answer.incomplete} (${client.provider}, model ${model}, maxTokens ${maxTokens})`);
    }
    const text = answer.text.trim();
    if (text === '') throw new Error(`LLM summariser returned a blank answer (${client.provider}, model ${model}); nothing committed`);
    return { text, model: answer.model };
  }
}

/** A ModelClient (an adapter or a domain team's own) rather than an SDK client. */
function isModelClient(client: ModelClient | Anthropic): client is ModelClient {
  return typeof (client as Partial<ModelClient>).complete === 'function';
}
