import { MessageType, THREAD_OPENING_TYPES, THREAD_STATUSES, ThreadState, ThreadStatus, threadStep } from '@qhorus/api';

/**
 * The thread rules as data the post statement can look up, so the thread index is written in the
 * post's own statement (one round trip) and still follows `applyThreadRule` exactly: for the
 * messages of one thread in one post, a table maps every state the thread can be in before them
 * to the state after them. It is COMPUTED from `threadStep` (never written by hand), and the
 * statement only looks the current row up in it (thread-upsert.ts).
 *
 * Owner and target are opaque to the rules, so sentinels stand in for them: the rules' answer says
 * whether the owner is kept or becomes a message's target.
 */

/** Key of a thread state in a transition table: `status|type`, both empty for "no thread". */
export function transitionKey(state: Pick<ThreadState, 'status' | 'type'> | null): string {
  return state ? `${state.status}|${state.type}` : '|';
}

/** Stands in for the current owner: the rules keep it or replace it, whoever it is. */
const OWNER = '\u0000owner';

/** Every state a thread can be in: none, or each status with each type that opens threads. */
export const PRIOR_STATES: readonly (ThreadState | null)[] = [
  null,
  ...THREAD_STATUSES.flatMap((status) => [...THREAD_OPENING_TYPES].map((type) => ({ status, type, owner: OWNER }))),
];

/**
 * For a batch: the messages of one thread inside one batch (in seq order) folded into ONE
 * transition per prior state, since one statement can write a row only once. Offsets count back,
 * in batch positions, from the group's last message (0 = last), so the statement derives seqs
 * from its own; the group's messages need not be consecutive in the batch.
 */
export interface GroupTransition {
  s: ThreadStatus | null;
  y: MessageType | null;
  /** `keep` the current owner, or `set` it to `owner`. */
  o: 'keep' | 'set';
  owner: string | null;
  /** Offset of the message that last opened the thread in the group (it becomes opener and opened seq), or null. */
  open: number | null;
  /** `keep` the closed seq, `clear` it (reopened, still open), or the offset of the message that closed it. */
  close: 'keep' | 'clear' | number;
}

/** One message of a thread's group: `ord` is its position in the batch (any increasing numbering). */
export interface GroupMessage {
  type: MessageType;
  target: string | null;
  ord: number;
}

export function groupTransitionTable(messages: readonly GroupMessage[]): Record<string, GroupTransition> {
  const table: Record<string, GroupTransition> = {};
  const last = messages[messages.length - 1].ord;
  for (const prior of PRIOR_STATES) {
    let state: ThreadState | null = prior;
    let open: number | null = null;
    let close: GroupTransition['close'] = 'keep';
    for (const m of messages) {
      const step = threadStep(state, m);
      state = step.next;
      if (step.opened) {
        open = last - m.ord;
        close = 'clear';
      }
      if (step.closed) close = last - m.ord;
    }
    const next = state as ThreadState | null;
    table[transitionKey(prior)] = {
      s: next?.status ?? null,
      y: next?.type ?? null,
      o: next !== null && next.owner === OWNER ? 'keep' : 'set',
      owner: next === null || next.owner === OWNER ? null : next.owner,
      open,
      close,
    };
  }
  return table;
}
