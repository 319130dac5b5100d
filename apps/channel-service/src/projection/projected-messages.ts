/**
 * The provider shapes a projection is rendered in. Qhorus itself emits only text, but the types
 * (and the shape validator) also cover tool calls, so the validator can check any transcript an
 * agent builds around a projection.
 */

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | AnthropicTextBlock[];
  is_error?: boolean;
}
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

/** The body fragment of an Anthropic Messages API call: `system` is a top-level field there. */
export interface AnthropicTranscript {
  system?: string;
  messages: AnthropicMessage[];
}

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAiMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  tool_calls?: OpenAiToolCall[];
  tool_call_id?: string;
}

export type OpenAiTranscript = OpenAiMessage[];

/**
 * One message of a projection in the `anthropic` or `openai` format. Qhorus emits only text, as
 * text blocks: Anthropic's `{type: 'text', text}` content block and OpenAI's text content part
 * have the same shape, so one message type (no unions) is both providers' own message.
 */
export interface ProjectedMessage {
  role: 'user' | 'assistant';
  content: AnthropicTextBlock[];
}

/** A projection's transcript: the provider's message array, or the rendered text for `text`. */
export type ProjectedTranscript = { messages: ProjectedMessage[]; text?: undefined } | { text: string; messages?: undefined };
