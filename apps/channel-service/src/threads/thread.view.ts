import { Thread } from './thread.entity';
import type { InboxEntry } from './threads.repository';

/** The JSON of one thread of the index (`GET /channels/{name}/threads`). */
export function threadView(channel: string, t: Thread) {
  return {
    channel,
    correlationId: t.correlationId,
    type: t.type,
    status: t.status,
    opener: t.opener,
    owner: t.owner,
    openedSeq: t.openedSeq,
    openedAt: t.openedAt,
    closedSeq: t.closedSeq,
    updatedSeq: t.updatedSeq,
    updatedAt: t.updatedAt,
  };
}

export type ThreadView = ReturnType<typeof threadView>;

const MS_PER_SECOND = 1000;

/** Why an open thread is in the caller's inbox. */
export type InboxReason = 'owed' | 'untargeted';

/**
 * One obligation in `GET /inbox`: the request (the message that opened or reopened the thread) and
 * how long it has waited. A redacted request reads as a tombstone does: `content: null` and
 * `redacted: {at, by, reason}` (present then only).
 */
export function inboxItemView(t: InboxEntry, caller: string, now: Date) {
  const item = {
    channel: t.channel,
    seq: t.openedSeq,
    correlationId: t.correlationId,
    type: t.type,
    opener: t.opener,
    owner: t.owner,
    reason: (t.owner === caller ? 'owed' : 'untargeted') as InboxReason,
    content: t.content,
    openedAt: t.openedAt,
    ageSeconds: Math.max(0, Math.floor((now.getTime() - t.openedAt.getTime()) / MS_PER_SECOND)),
  };
  return t.redaction === null ? item : { ...item, redacted: t.redaction };
}

export type InboxItemView = ReturnType<typeof inboxItemView>;
