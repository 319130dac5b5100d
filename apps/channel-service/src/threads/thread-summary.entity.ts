import { MessageType } from '@qhorus/api';

/** The stored summary of one thread (messages sharing a correlation id) of a channel. */
export interface ThreadSummary {
  channelId: string;
  correlationId: string;
  text: string;
  annotations: Record<string, string>;
  firstSeq: number;
  lastSeq: number;
  messageCount: number;
  /** The type of the message that closed the thread last (RESPONSE to a QUERY, DONE, DECLINE or FAILURE). */
  closedBy: MessageType;
  createdAt: Date;
}

export interface ThreadSummaryRow {
  channel_id: string;
  correlation_id: string;
  text: string;
  annotations: Record<string, string>;
  first_seq: string;
  last_seq: string;
  message_count: number;
  closed_by: string;
  created_at: Date;
}

export const THREAD_SUMMARY_COLUMNS = 'channel_id, correlation_id, text, annotations, first_seq, last_seq, message_count, closed_by, created_at';

/** bigint columns arrive as strings from `pg`: converted here, at the edge. */
export function toThreadSummary(r: ThreadSummaryRow): ThreadSummary {
  return {
    channelId: String(r.channel_id),
    correlationId: r.correlation_id,
    text: r.text,
    annotations: r.annotations ?? {},
    firstSeq: Number(r.first_seq),
    lastSeq: Number(r.last_seq),
    messageCount: r.message_count,
    closedBy: r.closed_by as MessageType,
    createdAt: r.created_at,
  };
}
