import { applyThreadRule, Message, MessageType, ThreadState } from '@qhorus/api';
import { ChannelStateTracker, dropsOpenThreads, groundOpenThreads, OPEN_THREADS_CAP, OpenThreadSeed, STATE_KEYS as K, ThreadType } from '@qhorus/blocks-channel-summary';
import { message } from '../conversation-generator';

/** What a durable thread index knows: every thread's state and opening message, folded with the same rules. */
class ThreadIndex {
  private readonly threads = new Map<string, { state: ThreadState; opening: Message }>();

  apply(m: Message): void {
    if (m.correlationId === null) return;
    const known = this.threads.get(m.correlationId);
    const next = applyThreadRule(known?.state ?? null, m);
    if (next === null) return;
    const reopened = next.status === 'open' && known?.state.status !== 'open';
    this.threads.set(m.correlationId, { state: next, opening: reopened || !known ? m : known.opening });
  }

  /** The open threads: the newest `newest`, and every one named in `touching`, as seeds; and how many are open. */
  open(newest: number, touching: readonly Message[]): { seeds: OpenThreadSeed[]; total: number } {
    const open = [...this.threads.entries()].filter(([, t]) => t.state.status === 'open').sort(([, a], [, b]) => a.opening.seq - b.opening.seq);
    const named = new Set(touching.map((m) => m.correlationId));
    const picked = open.filter(([id], i) => i >= open.length - newest || named.has(id));
    const seeds = picked.map(([correlationId, { state, opening }]) => ({
      correlationId,
      type: state.type as ThreadType,
      sender: opening.sender,
      seq: opening.seq,
      target: state.owner,
      topic: opening.topic,
      at: opening.createdAt,
      text: opening.content,
    }));
    return { seeds, total: open.length };
  }

  openIds(): string[] {
    return [...this.threads.entries()].filter(([, t]) => t.state.status === 'open').map(([id]) => id);
  }
}

const openIdsOf = (keys: Record<string, string>) => (JSON.parse(keys[K.openThreads]) as { correlationId: string }[]).map((t) => t.correlationId);

describe('groundOpenThreads: a state past the open-thread cap stays true when each batch is folded over the index', () => {
  let seq = 0;
  const query = (id: string) => message(++seq, { type: MessageType.QUERY, sender: 'alice', target: 'bob', correlationId: id });
  const answer = (id: string) => message(++seq, { type: MessageType.RESPONSE, sender: 'bob', correlationId: id });

  it('the scenario a tester found: 450 open, then answers among the dropped and the listed', () => {
    const tracker = new ChannelStateTracker();
    const index = new ThreadIndex();
    let annotations: Record<string, string> = {};
    const run = (batch: Message[], grounded: boolean) => {
      const previous = grounded && dropsOpenThreads(annotations) ? groundOpenThreads(annotations, ...seedsFor(batch)) : annotations;
      batch.forEach((m) => index.apply(m));
      annotations = { ...tracker.track(previous, batch).keys };
    };
    const seedsFor = (batch: Message[]): [OpenThreadSeed[], number] => {
      const { seeds, total } = index.open(OPEN_THREADS_CAP, batch);
      return [seeds, total];
    };
    const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `c${from + i}`);

    run(ids(0, 450).map(query), true);
    expect(openIdsOf(annotations)).toHaveLength(OPEN_THREADS_CAP);
    expect(annotations[K.openThreadsDropped]).toBe('250');

    run(ids(0, 10).map(answer), true); // all ten were dropped from the list
    expect(Number(annotations[K.openThreadsDropped]) + openIdsOf(annotations).length).toBe(440);

    run(ids(150, 450).map(answer), true); // 100 dropped and the 200 listed
    const listed = openIdsOf(annotations);
    expect(Number(annotations[K.openThreadsDropped]) + listed.length).toBe(index.openIds().length);
    expect(index.openIds()).toHaveLength(140);
    expect(listed.every((id) => index.openIds().includes(id))).toBe(true);

    // The next batch refills the list from the index: the 140 still open are listed, none dropped.
    run([query('c450')], true);
    expect(openIdsOf(annotations).sort()).toEqual(index.openIds().sort());
    expect(annotations[K.openThreadsDropped]).toBe('0');
  });

  it('without the index the same conversation ends with a wrong count (the defect this fixes)', () => {
    const tracker = new ChannelStateTracker();
    let annotations: Record<string, string> = {};
    const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `d${from + i}`);
    for (const batch of [ids(0, 450).map(query), ids(0, 10).map(answer), ids(150, 450).map(answer)]) annotations = { ...tracker.track(annotations, batch).keys };
    expect(openIdsOf(annotations)).toEqual([]);
    expect(annotations[K.openThreadsDropped]).toBe('250'); // 140 are open
  });

  it('keeps every other key, lists by seq, counts what it leaves out, and is needed only once something was dropped', () => {
    const seed = (n: number): OpenThreadSeed => ({ correlationId: `s${n}`, type: MessageType.QUERY, sender: 'ann', seq: n, target: null, topic: 'ops', at: new Date(Date.UTC(2026, 0, 1)), text: 'why?' });
    const grounded = groundOpenThreads({ [K.participants]: '["ann"]', tier: 'grouped' }, [seed(9), seed(3)], 5);
    expect(grounded).toMatchObject({ [K.participants]: '["ann"]', tier: 'grouped', [K.openThreadsDropped]: '3' });
    expect(openIdsOf(grounded)).toEqual(['s3', 's9']);
    expect(JSON.parse(grounded[K.openThreadDetails])['3']).toEqual({ target: null, topic: 'ops', at: '2026-01-01T00:00:00.000Z', text: 'why?' });
    expect([dropsOpenThreads(null), dropsOpenThreads({}), dropsOpenThreads({ [K.openThreadsDropped]: '0' }), dropsOpenThreads({ [K.openThreadsDropped]: '2' })]).toEqual([false, false, false, true]);
  });
});
