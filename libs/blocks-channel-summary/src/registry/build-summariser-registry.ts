import type Anthropic from '@anthropic-ai/sdk';
import { Message } from '@qhorus/api';
import {
  ContentSummariser,
  DEFAULT_LLM_TIMEOUT_MS,
  DEFAULT_SUMMARY_TEXT_MAX_CHARS,
  LlmContentSummariser,
  LlmSummaryMode,
  ModelClient,
  TieredContentSummariser,
  VerbatimContentSummariser,
} from '@qhorus/blocks-summarisation';
import {
  ChannelSummaryLlmOptions,
  ChannelSummaryModuleOptions,
  DEFAULT_LLM_MODE,
  DEFAULT_LLM_MODELS,
  DEFAULT_LLM_PROVIDER,
  DEFAULT_TIERED_T1,
  DEFAULT_TIERED_T2,
} from '../channel-summary.options';
import { renderMessage } from '../render-message';
import { createModelClient } from './model-client-factory';
import { BUILT_IN_SUMMARISERS, BUILT_IN_SUMMARISER_NAMES, DEFAULT_SUMMARISER_NAME, llmUnavailableReason } from './built-in-summarisers';
import { SummariserEntry } from './summariser-availability';
import { SummariserConfigError } from './summariser-config.error';
import { SummariserRegistry } from './summariser-registry';

/** Makes the model client (or null without a key); replaceable in tests (an SDK client is adapted). */
export type ModelClientFactory = (llm: ChannelSummaryLlmOptions | undefined) => ModelClient | Anthropic | null;
/** @deprecated See ModelClientFactory. */
export type AnthropicClientFactory = ModelClientFactory;

const LLM_MODES: Readonly<Record<string, LlmSummaryMode>> = Object.freeze({
  EDIT: LlmSummaryMode.EDIT,
  APPEND: LlmSummaryMode.APPEND,
});

/**
 * Builds the registry: `heuristic` (whatever CONTENT_SUMMARISER resolves to),
 * `verbatim`, `llm`, `tiered` (verbatim / heuristic / llm by batch size; without a key the large
 * tier is unavailable and the batch goes to the heuristic, annotated `tierFallback`), then the
 * custom `strategies`. Every text is held to `textMaxChars`: verbatim and llm keep within it, and
 * each hook (the registry's composition of a strategy with the state tracker) cuts any longer.
 *
 * Custom names may not reuse a built-in name (SummariserConfigError at start-up): the built-ins
 * have documented meanings, and the way to replace the default is the CONTENT_SUMMARISER token,
 * which also changes `tiered`'s medium tier so the two stay consistent.
 */
export function buildSummariserRegistry(
  options: ChannelSummaryModuleOptions,
  heuristic: ContentSummariser<Message>,
  createClient: ModelClientFactory = createModelClient,
): SummariserRegistry {
  const maxChars = options.textMaxChars ?? DEFAULT_SUMMARY_TEXT_MAX_CHARS;
  const verbatim = new VerbatimContentSummariser<Message>(renderMessage, { maxChars });
  const llm = buildLlm(options.llm, createClient, maxChars);
  const tiered = new TieredContentSummariser<Message>(
    verbatim,
    heuristic,
    llm,
    options.tiered?.t1 ?? DEFAULT_TIERED_T1,
    options.tiered?.t2 ?? DEFAULT_TIERED_T2,
  );
  const entries = new Map<string, SummariserEntry>([
    [BUILT_IN_SUMMARISERS.heuristic, { summariser: heuristic }],
    [BUILT_IN_SUMMARISERS.verbatim, { summariser: verbatim }],
    [BUILT_IN_SUMMARISERS.llm, { summariser: llm, unavailableReason: llmUnavailableReason(options.llm?.provider ?? DEFAULT_LLM_PROVIDER) }],
    [BUILT_IN_SUMMARISERS.tiered, { summariser: tiered }],
  ]);
  for (const [name, summariser] of Object.entries(options.strategies ?? {})) {
    if (BUILT_IN_SUMMARISER_NAMES.includes(name)) {
      throw new SummariserConfigError(
        `Custom summariser '${name}' would shadow a built-in (${BUILT_IN_SUMMARISER_NAMES.join(', ')}); ` +
          `choose another name, or provide CONTENT_SUMMARISER to replace the default`,
      );
    }
    if (name.trim() === '' || typeof summariser?.summarise !== 'function') {
      throw new SummariserConfigError(`Custom summariser '${name}' needs a non-blank name and a summarise() method`);
    }
    entries.set(name, { summariser });
  }
  return new SummariserRegistry(entries, options.defaultStrategy ?? DEFAULT_SUMMARISER_NAME, maxChars);
}

function buildLlm(llm: ChannelSummaryLlmOptions | undefined, createClient: ModelClientFactory, maxChars: number): LlmContentSummariser<Message> {
  const modeName = llm?.mode ?? DEFAULT_LLM_MODE;
  const mode = Object.hasOwn(LLM_MODES, modeName) ? LLM_MODES[modeName] : undefined;
  if (mode === undefined) throw new SummariserConfigError(`llm.mode must be one of ${Object.keys(LLM_MODES).join(', ')} (got '${modeName}')`);
  return new LlmContentSummariser<Message>(createClient(llm), renderMessage, mode, {
    model: llm?.model ?? DEFAULT_LLM_MODELS[llm?.provider ?? DEFAULT_LLM_PROVIDER],
    maxTokens: llm?.maxTokens,
    // llm.temperature is not forwarded: the LLM summariser ignores it (the API rejects sampling parameters).
    timeoutMs: llm?.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS,
    maxChars,
    unavailableReason: llmUnavailableReason(llm?.provider ?? DEFAULT_LLM_PROVIDER),
  });
}
