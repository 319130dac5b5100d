import { applyThreadRule, MESSAGE_TYPES, MessageType, THREAD_OPENING_TYPES, THREAD_STATUSES, ThreadState, ThreadStatus } from '@qhorus/api';
import { THREAD_RULES_AT_1765600000000 } from '../../../../migrations/1765600000000-thread-rules';
import { groupTransitionTable, transitionKey } from '../../src/threads/thread-transitions';

/** One message type's transitions in the form the thread index migration (1765600000000) froze them. */
interface ThreadTransition {
  /** Status after the message; null: still no thread. */
  s: ThreadStatus | null;
  /** Thread type after the message; null: still no thread. */
  y: MessageType | null;
  /** `keep` the current owner, or take the message's `target`. */
  o: 'keep' | 'target';
  /** The message opened or reopened the thread; the message closed it. */
  open: boolean;
  close: boolean;
}

/** Stands in for a message's target, so the table says whether the owner becomes it. */
const TARGET = '\u0000target';

/** The folded table the post statement looks up (threads/thread-upsert.ts) for a thread's one message, in the migration's form. */
function transitionTableJson(type: MessageType): string {
  const table: Record<string, ThreadTransition> = {};
  for (const [key, t] of Object.entries(groupTransitionTable([{ type, target: TARGET, ord: 0 }]))) {
    if (t.o === 'set' && t.s !== null && t.owner !== TARGET) throw new Error(`thread rules gave an owner that is neither the current owner nor the target (${type})`);
    table[key] = { s: t.s, y: t.y, o: t.owner === TARGET ? 'target' : 'keep', open: t.open !== null, close: typeof t.close === 'number' };
  }
  return JSON.stringify(table);
}

/** What the post statement does with a thread's one message (the folded table, threads/thread-upsert.ts). */
function applyLikeSql(prior: ThreadState | null, message: { type: MessageType; target: string | null }): ThreadState | null {
  const table: Record<string, ThreadTransition> = JSON.parse(transitionTableJson(message.type));
  const x = table[transitionKey(prior)];
  if (x.s === null || x.y === null) return null;
  return { status: x.s, type: x.y, owner: x.o === 'target' ? message.target : (prior?.owner ?? null) };
}

describe('thread transition tables (the thread rules as the post statement looks them up)', () => {
  const priors: (ThreadState | null)[] = [null];
  for (const status of THREAD_STATUSES) for (const type of THREAD_OPENING_TYPES) for (const owner of [null, 'bob']) priors.push({ status, type, owner });

  it('agree with applyThreadRule for every (status, type) a thread can be in, every message type, owner and target', () => {
    for (const prior of priors) {
      for (const type of MESSAGE_TYPES) {
        for (const target of [null, 'carol']) {
          const expected = applyThreadRule(prior, { type, target });
          expect({ prior, type, target, state: applyLikeSql(prior, { type, target }) }).toEqual({ prior, type, target, state: expected });
        }
      }
    }
  });

  it('mark opening and closing exactly when the status changes to or from open', () => {
    for (const prior of priors) {
      for (const type of MESSAGE_TYPES) {
        const x: ThreadTransition = JSON.parse(transitionTableJson(type))[transitionKey(prior)];
        const wasOpen = prior?.status === 'open';
        const isOpen = x.s === 'open';
        expect({ prior, type, open: x.open, close: x.close }).toEqual({ prior, type, open: !wasOpen && isOpen, close: wasOpen && !isOpen });
      }
    }
  });

  it('a QUERY answered by a RESPONSE closes; a RESPONSE leaves a COMMAND open', () => {
    const rows = JSON.parse(transitionTableJson(MessageType.RESPONSE));
    expect(rows['open|QUERY']).toEqual({ s: 'answered', y: 'QUERY', o: 'keep', open: false, close: true });
    expect(rows['open|COMMAND']).toEqual({ s: 'open', y: 'COMMAND', o: 'keep', open: false, close: false });
    expect(rows['|']).toEqual({ s: null, y: null, o: 'keep', open: false, close: false });
  });

  it('the thread index migration\'s frozen copy still equals the rules (it backfills with it)', () => {
    for (const type of MESSAGE_TYPES) expect({ type, table: THREAD_RULES_AT_1765600000000[type] }).toEqual({ type, table: JSON.parse(transitionTableJson(type)) });
  });
});
