import { MessageType } from './message';

/**
 * The thread rules of DESIGN §2, as one pure function: the state tracker, the thread index,
 * thread summaries and the inbox all fold messages through it, so they can never disagree.
 *
 * A thread is one correlation id in one channel.
 * - `QUERY` or `COMMAND` opens it (owed by its target, or by anyone when untargeted).
 * - `RESPONSE` closes a `QUERY`'s thread (answered); `DONE`, `DECLINE`, `FAILURE` close any.
 * - `HANDOFF` passes it to its target: it stays open, now owed by the target.
 * - Into a closed thread, `QUERY`, `COMMAND` and `HANDOFF` reopen it; anything else is a
 *   follow-up that leaves it closed.
 */
export type ThreadStatus = 'open' | 'answered' | 'done' | 'declined' | 'failed';

export const THREAD_STATUSES: readonly ThreadStatus[] = ['open', 'answered', 'done', 'declined', 'failed'];

export interface ThreadState {
  /** The type of the message that opened (or last reopened) the thread. */
  readonly type: MessageType;
  readonly status: ThreadStatus;
  /** Who owes the next step: the opener's target, a handoff's target, or null (anyone). */
  readonly owner: string | null;
}

/** Types that open a thread where there is none, or reopen a closed one. */
export const THREAD_OPENING_TYPES: ReadonlySet<MessageType> = new Set([
  MessageType.QUERY,
  MessageType.COMMAND,
  MessageType.HANDOFF,
]);

const CLOSING_STATUS: Partial<Record<MessageType, ThreadStatus>> = {
  [MessageType.DONE]: 'done',
  [MessageType.DECLINE]: 'declined',
  [MessageType.FAILURE]: 'failed',
};

export function isThreadOpen(thread: ThreadState | null): boolean {
  return thread?.status === 'open';
}

/**
 * The thread after `message` (one that carries the thread's correlation id).
 * Returns the same object when the message leaves the thread as it was, and null when there is
 * no thread and the message does not open one.
 */
export function applyThreadRule(
  thread: ThreadState | null,
  message: { readonly type: MessageType; readonly target: string | null },
): ThreadState | null {
  const { type, target } = message;
  if (thread === null || thread.status !== 'open') {
    if (!THREAD_OPENING_TYPES.has(type)) return thread;
    return { type, status: 'open', owner: target };
  }
  if (type === MessageType.HANDOFF) return { ...thread, owner: target };
  if (type === MessageType.RESPONSE) {
    return thread.type === MessageType.QUERY ? { ...thread, status: 'answered' } : thread;
  }
  const closing = CLOSING_STATUS[type];
  return closing ? { ...thread, status: closing } : thread;
}

/** Statuses of a closed thread: every status but `open`. */
export const CLOSED_THREAD_STATUSES: readonly ThreadStatus[] = THREAD_STATUSES.filter((s) => s !== 'open');

export function isThreadClosed(thread: ThreadState | null): boolean {
  return thread !== null && thread.status !== 'open';
}

/** What one message did to its thread, for a durable index that records when threads open and close. */
export interface ThreadStep {
  readonly next: ThreadState | null;
  /** The message opened the thread, or reopened a closed one (it becomes the thread's opener). */
  readonly opened: boolean;
  /** The message closed an open thread. */
  readonly closed: boolean;
}

/** applyThreadRule, plus whether the message opened or closed the thread. */
export function threadStep(
  thread: ThreadState | null,
  message: { readonly type: MessageType; readonly target: string | null },
): ThreadStep {
  const next = applyThreadRule(thread, message);
  const wasOpen = isThreadOpen(thread);
  const isOpen = isThreadOpen(next);
  return { next, opened: !wasOpen && isOpen, closed: wasOpen && !isOpen };
}
