import { Message, MessageType } from '@qhorus/api';

const BASE_TIME = Date.UTC(2025, 0, 1, 9, 0, 0);

/** A stored message with sensible defaults, for projection tests. */
export function message(seq: number, sender: string, content: string, extra: Partial<Message> = {}): Message {
  return {
    id: String(seq),
    channel: 'room',
    seq,
    type: MessageType.STATUS,
    sender,
    content,
    topic: 'general',
    correlationId: null,
    inReplyTo: null,
    target: null,
    metadata: null,
    createdAt: new Date(BASE_TIME + seq * 1000),
    ...extra,
  };
}

/** Messages seq from..from+n-1, alternating between the given senders. */
export function conversation(from: number, n: number, senders: string[], content = (seq: number) => `note ${seq}`): Message[] {
  return Array.from({ length: n }, (_, i) => message(from + i, senders[i % senders.length], content(from + i)));
}

/** Every text unit of a projection, whatever the format. */
export function unitTexts(projection: { format: string; messages?: { content: { text: string }[] }[]; text?: string }): string[] {
  if (projection.format === 'text') return [projection.text ?? ''];
  return (projection.messages ?? []).flatMap((m) => m.content.map((b) => b.text));
}
