import Anthropic from '@anthropic-ai/sdk';
import { LLM_MAX_RETRIES } from '@qhorus/blocks-summarisation';
import { ChannelSummaryLlmOptions } from '../channel-summary.options';

/** What the client needs from the LLM options. */
export type AnthropicClientOptions = Pick<ChannelSummaryLlmOptions, 'apiKey' | 'baseURL' | 'timeoutMs'>;

/**
 * The Anthropic client for the LLM tier, or null when no API key is configured (the tier is then
 * unavailable). SDK retries are off: the app's job queue owns retries and backoff.
 */
export function createAnthropicClient(llm: AnthropicClientOptions | undefined): Anthropic | null {
  const apiKey = llm?.apiKey?.trim();
  if (!llm || !apiKey) return null;
  return new Anthropic({
    apiKey,
    baseURL: llm.baseURL || undefined,
    maxRetries: LLM_MAX_RETRIES,
    timeout: llm.timeoutMs,
  });
}
