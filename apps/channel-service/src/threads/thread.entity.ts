import { MessageType, ThreadStatus } from '@qhorus/api';

/** One thread of the durable thread index: a correlation id of a channel, kept by the post statement. */
export interface Thread {
  channelId: string;
  correlationId: string;
  status: ThreadStatus;
  /** The type of the message that opened (or last reopened) it. */
  type: MessageType;
  /** Who owes the next step: the opener's target, a handoff's target; null = anyone. */
  owner: string | null;
  /** The sender of the message that opened (or last reopened) it. */
  opener: string;
  openedSeq: number;
  openedAt: Date;
  /** The seq of the message that closed it; null while open. */
  closedSeq: number | null;
  updatedSeq: number;
  updatedAt: Date;
  /** The closed seq the stored summary covers; null before the first summary. */
  summarisedSeq: number | null;
}

export interface ThreadRow {
  channel_id: string;
  correlation_id: string;
  status: string;
  type: string;
  owner: string | null;
  opener: string;
  opened_seq: string;
  opened_at: Date;
  closed_seq: string | null;
  updated_seq: string;
  updated_at: Date;
  summarised_seq: string | null;
}

export const THREAD_COLUMNS =
  'channel_id, correlation_id, status, type, owner, opener, opened_seq, opened_at, closed_seq, updated_seq, updated_at, summarised_seq';

const nullableNumber = (v: string | null): number | null => (v === null ? null : Number(v));

/** bigint columns arrive as strings from `pg`: converted here, at the edge. */
export function toThread(r: ThreadRow): Thread {
  return {
    channelId: String(r.channel_id),
    correlationId: r.correlation_id,
    status: r.status as ThreadStatus,
    type: r.type as MessageType,
    owner: r.owner,
    opener: r.opener,
    openedSeq: Number(r.opened_seq),
    openedAt: r.opened_at,
    closedSeq: nullableNumber(r.closed_seq),
    updatedSeq: Number(r.updated_seq),
    updatedAt: r.updated_at,
    summarisedSeq: nullableNumber(r.summarised_seq),
  };
}

/** The thread is closed and its stored summary covers its last close. */
export function hasCurrentSummary(t: Thread): boolean {
  return t.closedSeq !== null && t.summarisedSeq !== null && t.summarisedSeq >= t.closedSeq;
}
