import { DEFAULT_TOPIC, Message, MessageType } from '@qhorus/api';
import type { MessageResponse } from './dto/message.response';

export interface MessageRow {
  id: string;
  seq: string;
  type: string;
  sender: string;
  /** NULL on a tombstone (DESIGN §10), like topic and metadata. */
  content: string | null;
  topic: string | null;
  correlation_id: string | null;
  in_reply_to: string | null;
  target: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  redacted_at: Date | null;
  redacted_by: string | null;
  redaction_reason: string | null;
}

export const MESSAGE_COLUMNS =
  'id, seq, type, sender, content, topic, correlation_id, in_reply_to, target, metadata, created_at, redacted_at, redacted_by, redaction_reason';

/** Who removed a message's content, when and why. */
export interface Redaction {
  at: Date;
  by: string;
  reason: string;
}

/** A message as read from the table: a tombstone carries its redaction (summarisers see only `redacted: true`). */
export interface StoredMessage extends Message {
  readonly redaction?: Redaction;
}

/**
 * bigint columns arrive as strings from `pg`: converted here, at the edge. A tombstone becomes
 * the SPI's (content '', the default topic, no metadata, `redacted: true`) plus its redaction.
 */
export function toMessage(r: MessageRow, channel: string): StoredMessage {
  const redacted = r.redacted_at !== null && r.redacted_at !== undefined;
  const message: StoredMessage = {
    id: String(r.id),
    channel,
    seq: Number(r.seq),
    type: r.type as MessageType,
    sender: r.sender,
    // A tombstone keeps the envelope and loses what was said (DESIGN §10).
    content: redacted ? '' : (r.content ?? ''),
    topic: redacted ? DEFAULT_TOPIC : (r.topic ?? DEFAULT_TOPIC),
    correlationId: r.correlation_id,
    inReplyTo: r.in_reply_to === null ? null : Number(r.in_reply_to),
    target: r.target,
    metadata: redacted ? null : r.metadata,
    createdAt: r.created_at,
  };
  return redacted ? { ...message, redacted: true, redaction: { at: r.redacted_at!, by: r.redacted_by ?? '', reason: r.redaction_reason ?? '' } } : message;
}

/**
 * The public JSON of a message. A tombstone shows `content: null`, `topic: null`, no metadata
 * and `redacted: {at, by, reason}`; `redacted` is present on tombstones only.
 */
export function messageView(m: StoredMessage): MessageResponse {
  const { redaction, redacted, ...kept } = m;
  if (!redacted) return kept;
  return { ...kept, content: null, topic: null, metadata: null, redacted: redaction ?? { at: m.createdAt, by: '', reason: '' } };
}
