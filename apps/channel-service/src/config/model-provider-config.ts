import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUrl } from 'class-validator';
import { DEFAULT_LLM_MODELS, LLM_PROVIDERS, LlmProviderName } from '@qhorus/blocks-channel-summary';

export { LLM_PROVIDERS, LlmProviderName };

/** A model API base URL: http(s) with a host; `localhost` and bare hosts (a container name) are fine. */
const MODEL_URL_OPTIONS = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** An optional knob holding a model API base URL (unset or `NAME=`: the SDK's default). */
export function ModelUrl(): PropertyDecorator {
  const decorators = [
    IsUrl(MODEL_URL_OPTIONS, { message: '$property must be an http:// or https:// URL (the model API base URL)' }),
    IsString(),
    IsOptional(),
    Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value)),
  ];
  return (target, key) => {
    for (const decorate of decorators) decorate(target, key);
  };
}

/** QHORUS_LLM_MODEL when set, else the provider's default. */
export function llmModelFor(provider: LlmProviderName, model: string | undefined): string {
  return model ?? DEFAULT_LLM_MODELS[provider];
}

/** What is wrong with the model provider's settings beyond each knob's own check, naming the setting; null when nothing. */
export function modelProviderProblem(config: { QHORUS_LLM_MODEL?: string }): string | null {
  if (config.QHORUS_LLM_MODEL !== undefined && config.QHORUS_LLM_MODEL.trim() === '') {
    return "QHORUS_LLM_MODEL is blank: name a model, or leave it unset for the provider's default";
  }
  return null;
}
