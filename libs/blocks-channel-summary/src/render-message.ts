import { Message, shownContent } from '@qhorus/api';
import { excerpt } from './text/excerpt';

/** Longest message content shown in a rendered line; verbatim lists and LLM prompts stay bounded. */
export const RENDERED_CONTENT_CAP = 500;

/**
 * Renders one message as a single line, e.g.
 * `#12 COMMAND alice→bob [build] (corr c-1): run the tests`.
 * Newlines are collapsed and long content is cut (marked with "…") so each message is one line.
 * A redacted message shows `[redacted]` and no topic: `#12 STATUS alice: [redacted]`.
 */
export function renderMessage(m: Message): string {
  const target = m.target ? `→${m.target}` : '';
  const corr = m.correlationId ? ` (corr ${m.correlationId})` : '';
  const reply = m.inReplyTo != null ? ` (re #${m.inReplyTo})` : '';
  const topic = m.redacted ? '' : ` [${m.topic}]`;
  return `#${m.seq} ${m.type} ${m.sender}${target}${topic}${corr}${reply}: ${excerpt(shownContent(m), RENDERED_CONTENT_CAP)}`;
}
