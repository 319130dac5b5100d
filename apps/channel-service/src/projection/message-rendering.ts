import { Message, shownContent } from '@qhorus/api';

export type ProjectedRole = 'user' | 'assistant';

/** One message as it appears in a projection. */
export interface RenderedMessage {
  seq: number;
  role: ProjectedRole;
  text: string;
}

/** What a sender tag and a tagged text are made of. */
export type TaggableMessage = Pick<Message, 'sender' | 'type' | 'seq' | 'target' | 'correlationId' | 'inReplyTo' | 'content' | 'redacted'>;

/**
 * Who said what, e.g. `[alice · QUERY #12 → bob · corr c-1 · re #9]`: enough for the reader to
 * answer (in_reply_to, correlation_id) or expand (check_messages) without another call.
 */
export function senderTag(m: TaggableMessage, you = false): string {
  const target = m.target ? ` → ${m.target}` : '';
  const corr = m.correlationId ? ` · corr ${m.correlationId}` : '';
  const reply = m.inReplyTo ? ` · re #${m.inReplyTo}` : '';
  return `[${m.sender}${you ? ' (you)' : ''} · ${m.type} #${m.seq}${target}${corr}${reply}]`;
}

/** The message with its sender tag: how others' messages (and every message in `text`) appear. */
export function taggedText(m: TaggableMessage, you = false): string {
  const content = shownContent(m).trimEnd();
  return content.trim() ? `${senderTag(m, you)} ${content}` : senderTag(m, you);
}

/**
 * The viewer's own messages become `assistant` turns with their content as written (a model
 * should not learn to write tags); everyone else's are `user` turns tagged with the sender. In
 * the text format every message is tagged, the viewer's marked "(you)". Trailing whitespace is
 * dropped (providers reject it at the end of an assistant turn), and an own message without
 * content (DONE, HANDOFF) shows as `[DONE]`, never blank; a redacted one as `[redacted]`.
 */
export function renderForViewer(m: Message, viewer: string, textFormat: boolean): RenderedMessage {
  const own = m.sender === viewer;
  if (textFormat) return { seq: m.seq, role: own ? 'assistant' : 'user', text: taggedText(m, own) };
  if (!own) return { seq: m.seq, role: 'user', text: taggedText(m) };
  const content = shownContent(m).trimEnd();
  const text = content.trim() ? content : `[${m.type}${m.target ? ` → ${m.target}` : ''}]`;
  return { seq: m.seq, role: 'assistant', text };
}
