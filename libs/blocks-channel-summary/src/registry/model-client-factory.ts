import Anthropic from '@anthropic-ai/sdk';
import { AnthropicModelClient, LLM_MAX_RETRIES, ModelClient, ModelWarningSink, OpenAiModelClient } from '@qhorus/blocks-summarisation';
import OpenAI from 'openai';
import { ChannelSummaryLlmOptions, DEFAULT_LLM_PROVIDER } from '../channel-summary.options';

/** What the clients need from the LLM options. */
export type ModelClientOptions = Pick<ChannelSummaryLlmOptions, 'provider' | 'apiKey' | 'baseURL' | 'timeoutMs' | 'onWarning'>;
/** @deprecated The options of `createAnthropicClient`; see ModelClientOptions. */
export type AnthropicClientOptions = ModelClientOptions;

/**
 * The model client for the LLM tier, for the configured provider, or null when no API key is
 * configured (the tier is then unavailable). SDK retries are off: the app's job queue owns
 * retries and backoff. The SDKs' own log lines go to `onWarning` (the app's log), never stdout.
 */
export function createModelClient(llm: ModelClientOptions | undefined): ModelClient | null {
  const apiKey = llm?.apiKey?.trim();
  if (!llm || !apiKey) return null;
  const provider = llm.provider ?? DEFAULT_LLM_PROVIDER;
  const options = { apiKey, baseURL: llm.baseURL || undefined, maxRetries: LLM_MAX_RETRIES, timeout: llm.timeoutMs, logger: sdkLogger(llm.onWarning, provider), logLevel: 'warn' as const };
  switch (provider) {
    case 'anthropic':
      return new AnthropicModelClient(new Anthropic(options), llm.onWarning);
    case 'openai':
      return new OpenAiModelClient(new OpenAI(options));
  }
}

/** The Anthropic SDK client alone (kept for callers from before providers), or null without a key. */
export function createAnthropicClient(llm: ModelClientOptions | undefined): Anthropic | null {
  const apiKey = llm?.apiKey?.trim();
  if (!llm || !apiKey) return null;
  return new Anthropic({ apiKey, baseURL: llm.baseURL || undefined, maxRetries: LLM_MAX_RETRIES, timeout: llm.timeoutMs });
}

/** Both SDKs take a console-shaped logger: warnings and errors to the sink, the rest dropped. */
function sdkLogger(sink: ModelWarningSink | undefined, provider: string) {
  if (!sink) return undefined;
  const report = (message: string) => sink({ provider, model: null, message });
  const ignore = () => undefined;
  return { error: report, warn: report, info: ignore, debug: ignore };
}
