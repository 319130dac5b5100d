import fc from 'fast-check';
import { applyThreadRule, CLOSED_THREAD_STATUSES, isThreadClosed, MessageType, ThreadState, threadStep } from '../src';

const post = (type: MessageType, target: string | null = null) => ({ type, target });

describe('thread rules (DESIGN §2)', () => {
  it('a QUERY opens a thread owed by its target; a RESPONSE answers it', () => {
    const opened = applyThreadRule(null, post(MessageType.QUERY, 'bob'));
    expect(opened).toEqual({ type: MessageType.QUERY, status: 'open', owner: 'bob' });
    expect(applyThreadRule(opened, post(MessageType.RESPONSE))?.status).toBe('answered');
  });

  it('a RESPONSE does not close a COMMAND; DONE, DECLINE and FAILURE close any thread', () => {
    const command = applyThreadRule(null, post(MessageType.COMMAND));
    expect(applyThreadRule(command, post(MessageType.RESPONSE))?.status).toBe('open');
    expect(applyThreadRule(command, post(MessageType.DONE))?.status).toBe('done');
    expect(applyThreadRule(command, post(MessageType.DECLINE))?.status).toBe('declined');
    expect(applyThreadRule(command, post(MessageType.FAILURE))?.status).toBe('failed');
  });

  it('a HANDOFF keeps the thread open, now owed by its target', () => {
    const opened = applyThreadRule(null, post(MessageType.COMMAND, 'bob'));
    expect(applyThreadRule(opened, post(MessageType.HANDOFF, 'carol'))).toEqual({
      type: MessageType.COMMAND,
      status: 'open',
      owner: 'carol',
    });
  });

  it('QUERY, COMMAND and HANDOFF reopen a closed thread; other posts are follow-ups', () => {
    const closed = applyThreadRule(applyThreadRule(null, post(MessageType.QUERY)), post(MessageType.RESPONSE));
    for (const type of [MessageType.STATUS, MessageType.RESPONSE, MessageType.DONE, MessageType.EVENT]) {
      expect(applyThreadRule(closed, post(type))).toBe(closed);
    }
    for (const type of [MessageType.QUERY, MessageType.COMMAND, MessageType.HANDOFF]) {
      expect(applyThreadRule(closed, post(type, 'dave'))).toEqual({ type, status: 'open', owner: 'dave' });
    }
  });

  it('only an opening type creates a thread', () => {
    for (const type of Object.values(MessageType)) {
      const t = applyThreadRule(null, post(type));
      expect(t !== null).toBe([MessageType.QUERY, MessageType.COMMAND, MessageType.HANDOFF].includes(type));
    }
  });

  it('for every sequence of posts: once opened a thread exists, and it is open right after every QUERY, COMMAND or HANDOFF', () => {
    const opening = [MessageType.QUERY, MessageType.COMMAND, MessageType.HANDOFF];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...Object.values(MessageType)), { maxLength: 30 }), (seq) => {
        let thread: ThreadState | null = null;
        let opened = false;
        for (const type of seq) {
          thread = applyThreadRule(thread, post(type));
          opened ||= opening.includes(type);
          if (opened !== (thread !== null)) return false;
          if (opening.includes(type) && thread?.status !== 'open') return false;
        }
        return true;
      }),
    );
  });

  it('threadStep says when a message opens (or reopens) and when it closes the thread', () => {
    const opened = threadStep(null, post(MessageType.QUERY, 'bob'));
    expect(opened).toEqual({ next: { type: MessageType.QUERY, status: 'open', owner: 'bob' }, opened: true, closed: false });
    const handedOff = threadStep(opened.next, post(MessageType.HANDOFF, 'carol'));
    expect(handedOff).toMatchObject({ opened: false, closed: false, next: { owner: 'carol', status: 'open' } });
    const answered = threadStep(handedOff.next, post(MessageType.RESPONSE));
    expect(answered).toMatchObject({ opened: false, closed: true, next: { status: 'answered' } });
    expect(isThreadClosed(answered.next)).toBe(true);
    expect(threadStep(answered.next, post(MessageType.STATUS))).toMatchObject({ opened: false, closed: false });
    expect(threadStep(answered.next, post(MessageType.COMMAND, 'dave'))).toMatchObject({ opened: true, closed: false, next: { type: MessageType.COMMAND, owner: 'dave' } });
    expect(threadStep(null, post(MessageType.DONE))).toEqual({ next: null, opened: false, closed: false });
    expect(isThreadClosed(null)).toBe(false);
    expect(CLOSED_THREAD_STATUSES).toEqual(['answered', 'done', 'declined', 'failed']);
  });
});
