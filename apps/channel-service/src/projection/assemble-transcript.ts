import { ContextFormat } from './context-format';
import { ProjectedRole } from './message-rendering';
import { AnthropicMessage, ProjectedMessages } from './projected-messages';

/** One text unit of a projection, in order: the summary, the digest, then the messages. */
export interface TranscriptUnit {
  role: ProjectedRole;
  text: string;
}

/** Separates the units of the text format. */
export const TEXT_UNIT_SEPARATOR = '\n\n';

/**
 * Renders units in a provider's shape. Anthropic wants strict user/assistant alternation, so
 * consecutive same-role units merge into one message as separate text blocks (the summary block
 * stays its own first block, byte for byte). OpenAI accepts consecutive same-role messages, so
 * each unit stays its own message. Text joins the units with blank lines.
 */
export function assembleTranscript(units: readonly TranscriptUnit[], format: ContextFormat): ProjectedMessages {
  if (format === 'text') return units.map((u) => u.text).join(TEXT_UNIT_SEPARATOR);
  if (format === 'openai') return units.map((u) => ({ role: u.role, content: u.text }));
  const messages: AnthropicMessage[] = [];
  for (const u of units) {
    const last = messages[messages.length - 1];
    const block = { type: 'text' as const, text: u.text };
    if (last && last.role === u.role && Array.isArray(last.content)) last.content.push(block);
    else messages.push({ role: u.role, content: [block] });
  }
  return { messages };
}
