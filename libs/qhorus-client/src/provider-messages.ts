import type { AssistantMessageParam, UserMessageParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { components } from './generated/openapi';

export type ContextResponse = components['schemas']['ContextResponse'];
export type ProjectedMessage = components['schemas']['ProjectedMessage'];

/** A projected message as the Anthropic SDK types it (`messages.create({ messages })`). */
export type AnthropicMessage = UserMessageParam | AssistantMessageParam;

/**
 * A projected message as OpenAI Chat Completions takes it: structurally a
 * `ChatCompletionUserMessageParam | ChatCompletionAssistantMessageParam` with text content
 * parts. Defined here because the `openai` package is not a dependency; the type is assignable
 * to the SDK's `ChatCompletionMessageParam`.
 */
export type OpenAIChatMessage =
  | { role: 'user'; content: { type: 'text'; text: string }[] }
  | { role: 'assistant'; content: { type: 'text'; text: string }[] };

function messagesOf(context: ContextResponse, format: 'anthropic' | 'openai'): ProjectedMessage[] {
  if (context.format !== format || !context.messages) {
    throw new TypeError(`this projection is in the ${context.format} format; ask for format=${format}`);
  }
  return context.messages;
}

/** The projection's messages for `anthropic.messages.create({ messages })`. */
export function toAnthropicMessages(context: ContextResponse): AnthropicMessage[] {
  return messagesOf(context, 'anthropic').map((m): AnthropicMessage => ({ role: m.role, content: m.content.map((b) => ({ type: 'text', text: b.text })) }));
}

/** The projection's messages for `openai.chat.completions.create({ messages })`. */
export function toOpenAIMessages(context: ContextResponse): OpenAIChatMessage[] {
  return messagesOf(context, 'openai').map((m): OpenAIChatMessage => ({ role: m.role, content: m.content.map((b) => ({ type: 'text', text: b.text })) }));
}
