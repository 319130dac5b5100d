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

/** What `messages` holds in a projection, by format. */
export type ProjectedMessages = AnthropicTranscript | OpenAiTranscript | string;
