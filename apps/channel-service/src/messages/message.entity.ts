import { Message, MessageType } from '@qhorus/api';
import type { MessageResponse } from './dto/message.response';

export interface MessageRow {
  id: string;
  seq: string;
  type: string;
  sender: string;
  content: string;
  topic: string;
  correlation_id: string | null;
  in_reply_to: string | null;
  target: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

export const MESSAGE_COLUMNS = 'id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at';

/** bigint columns arrive as strings from `pg`: converted here, at the edge. */
export function toMessage(r: MessageRow, channel: string): Message {
  return {
    id: String(r.id),
    channel,
    seq: Number(r.seq),
    type: r.type as MessageType,
    sender: r.sender,
    content: r.content,
    topic: r.topic,
    correlationId: r.correlation_id,
    inReplyTo: r.in_reply_to === null ? null : Number(r.in_reply_to),
    target: r.target,
    metadata: r.metadata,
    createdAt: r.created_at,
  };
}

/** The public JSON of a message. */
export function messageView(m: Message): MessageResponse {
  return { ...m };
}
