import { FakeAnthropicHandler, FakeAnthropicRequest, startFakeAnthropic } from '../../libs/blocks-summarisation/test/fake-anthropic-server';
import { openAiPrompt, startFakeOpenAi } from '../../libs/blocks-summarisation/test/fake-openai-server';

/** A local stand-in for one model provider's API, driven through the real SDK by the service. */
export interface FakeModelServer {
  readonly baseURL: string;
  readonly requests: FakeAnthropicRequest[];
  close(): Promise<void>;
}

/** How a test runs the service against one provider's stand-in. */
export interface FakeModelProvider {
  /** QHORUS_LLM_PROVIDER */
  readonly name: 'anthropic' | 'openai';
  start(handler: FakeAnthropicHandler): Promise<FakeModelServer>;
  /** The service's environment for this provider at `baseURL` (each provider set up another way its users would). */
  env(baseURL: string): Record<string, string>;
  /** The user turn of a recorded request: the prompt the service built. */
  promptOf(request: FakeAnthropicRequest): string;
}

export const FAKE_MODEL_PROVIDERS: readonly FakeModelProvider[] = [
  {
    name: 'anthropic',
    start: startFakeAnthropic,
    // The variables an Anthropic user already has: the provider's own key and URL.
    env: (baseURL) => ({ ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: baseURL }),
    promptOf: (request) => request.body.messages[0].content,
  },
  {
    name: 'openai',
    start: startFakeOpenAi,
    // A self-hosted OpenAI-compatible server: the QHORUS_LLM_* knobs and a model of its own.
    env: (baseURL) => ({ QHORUS_LLM_PROVIDER: 'openai', QHORUS_LLM_API_KEY: 'test', QHORUS_LLM_BASE_URL: baseURL, QHORUS_LLM_MODEL: 'qwen3:8b' }),
    promptOf: openAiPrompt,
  },
];
