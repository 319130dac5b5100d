/** Message types, as in the original Qhorus. */
export enum MessageType {
  QUERY = 'QUERY',
  COMMAND = 'COMMAND',
  RESPONSE = 'RESPONSE',
  STATUS = 'STATUS',
  DECLINE = 'DECLINE',
  FAILURE = 'FAILURE',
  HANDOFF = 'HANDOFF',
  DONE = 'DONE',
  EVENT = 'EVENT',
}

export const MESSAGE_TYPES: readonly MessageType[] = Object.values(MessageType);

/** Types that open a request thread; they always carry a correlation id. */
export const REQUEST_TYPES: ReadonlySet<MessageType> = new Set([MessageType.QUERY, MessageType.COMMAND]);
/** Types that must carry content. */
export const CONTENT_REQUIRED_TYPES: ReadonlySet<MessageType> = new Set([MessageType.DECLINE, MessageType.FAILURE]);
/** Types that must name a target agent. */
export const TARGET_REQUIRED_TYPES: ReadonlySet<MessageType> = new Set([MessageType.HANDOFF]);
/** Types that end their thread. */
export const TERMINAL_TYPES: ReadonlySet<MessageType> = new Set([MessageType.HANDOFF, MessageType.DONE, MessageType.FAILURE]);
/** Types that close an open request (answer it one way or another). */
export const CLOSING_TYPES: ReadonlySet<MessageType> = new Set([
  MessageType.RESPONSE,
  MessageType.DONE,
  MessageType.DECLINE,
  MessageType.FAILURE,
]);

export const DEFAULT_TOPIC = 'general';

/** How a summary or a rendering shows the content of a redacted message (DESIGN §10). */
export const REDACTED_TEXT = '[redacted]';

/**
 * A message as stored in a channel. `seq` is gapless and unique per channel.
 * A redacted message (a tombstone, DESIGN §10) keeps its seq, type, sender, time, correlation id
 * and target; summarisers receive it with `content: ''`, the default topic, no metadata and
 * `redacted: true` — never null.
 */
export interface Message {
  readonly id: string;
  readonly channel: string;
  readonly seq: number;
  readonly type: MessageType;
  readonly sender: string;
  readonly content: string;
  readonly topic: string;
  readonly correlationId: string | null;
  readonly inReplyTo: number | null;
  readonly target: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly createdAt: Date;
  /** Set (true) on a tombstone only: its content, topic and metadata were removed. */
  readonly redacted?: boolean;
}

/** The text a summary or a rendering shows for `m`: its content, or `[redacted]` on a tombstone. */
export function shownContent(m: Pick<Message, 'content' | 'redacted'>): string {
  return m.redacted ? REDACTED_TEXT : m.content;
}
