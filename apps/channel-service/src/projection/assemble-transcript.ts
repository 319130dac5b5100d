import { ContextFormat } from './context-format';
import { ProjectedRole } from './message-rendering';
import { ProjectedMessage, ProjectedTranscript } from './projected-messages';

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
 * each unit stays its own message (content as text parts, which OpenAI accepts for every role).
 * Text joins the units with blank lines into `text`; `messages` is then absent.
 */
export function assembleTranscript(units: readonly TranscriptUnit[], format: ContextFormat): ProjectedTranscript {
  if (format === 'text') return { text: units.map((u) => u.text).join(TEXT_UNIT_SEPARATOR) };
  if (format === 'openai') return { messages: units.map((u) => ({ role: u.role, content: [{ type: 'text', text: u.text }] })) };
  const messages: ProjectedMessage[] = [];
  for (const u of units) {
    const last = messages[messages.length - 1];
    const block = { type: 'text' as const, text: u.text };
    if (last && last.role === u.role) last.content.push(block);
    else messages.push({ role: u.role, content: [block] });
  }
  return { messages };
}
