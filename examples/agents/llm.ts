import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicMessage } from '@qhorus/client';

/** How long an answer the agents ask for. */
export const MAX_ANSWER_TOKENS = 400;

/** One Messages API call over a Qhorus context projection; answers its text. */
export async function ask(anthropic: Anthropic, model: string, system: string, messages: AnthropicMessage[]): Promise<string> {
  const answer = await anthropic.messages.create({ model, max_tokens: MAX_ANSWER_TOKENS, system, messages });
  const text = answer.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim();
  if (!text) throw new Error('the model gave an empty answer');
  return text;
}
