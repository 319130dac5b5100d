import { SummaryResult } from '@qhorus/api';
import {
  ContentSummariserToSummariser,
  KeyedSummarisationRunner,
  LevelEvent,
  Summariser,
  VerbatimContentSummariser,
} from '@qhorus/blocks-summarisation';
import { Item, renderItem } from './fixtures';

const MAX_IDLE_MS = 1_000;
const event = (key: string, text: string, at: number): LevelEvent<Item> => ({ key, level: 0, at, payload: { sender: 'bob', text } });
const isDone = (events: readonly LevelEvent<Item>[]) => events.some((e) => e.payload.text === 'DONE');

function harness(summariser: Summariser<LevelEvent<Item>> = new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem))) {
  const published: { key: string; result: SummaryResult; events: readonly LevelEvent<Item>[] }[] = [];
  const failures: { key: string; error: unknown }[] = [];
  const runner = new KeyedSummarisationRunner<Item>({
    summariser,
    isComplete: isDone,
    maxIdleMs: MAX_IDLE_MS,
    onSummary: (key, result, events) => published.push({ key, result, events }),
    onFailure: (key, error) => failures.push({ key, error }),
  });
  return { runner, published, failures };
}

describe('KeyedSummarisationRunner', () => {
  it('emits a group when the completion predicate says it is done, then forgets the key', async () => {
    const { runner, published } = harness();
    expect(await runner.collect(event('t1', 'start', 0))).toBe(false);
    expect(await runner.collect(event('t2', 'other', 1))).toBe(false);
    expect(await runner.collect(event('t1', 'DONE', 2))).toBe(true);
    expect(published).toHaveLength(1);
    expect(published[0].key).toBe('t1');
    expect(published[0].result.text).toBe('- bob: start\n- bob: DONE');
    expect(runner.pendingKeys).toEqual(['t2']);

    await runner.collect(event('t1', 'late', 3));
    expect(runner.pendingKeys.sort()).toEqual(['t1', 't2']);
  });

  it('emits a stale group on tick once no event came for maxIdleMs (inclusive)', async () => {
    const { runner, published } = harness();
    await runner.collect(event('t1', 'a', 0));
    await runner.collect(event('t1', 'b', 500));
    await runner.collect(event('t2', 'c', 900));
    expect(await runner.tick(1_499)).toBe(0);
    expect(await runner.tick(new Date(1_500))).toBe(1);
    expect(published.map((p) => p.key)).toEqual(['t1']);
    expect(published[0].events).toHaveLength(2);
    expect(runner.pendingKeys).toEqual(['t2']);
    expect(await runner.tick(1_900)).toBe(1);
    expect(runner.pendingKeys).toEqual([]);
  });

  it('groups by a custom key function', async () => {
    const published: string[] = [];
    const runner = new KeyedSummarisationRunner<Item>({
      summariser: new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)),
      isComplete: isDone,
      maxIdleMs: MAX_IDLE_MS,
      keyOf: (e) => e.payload.sender,
      onSummary: (key) => published.push(key),
    });
    await runner.collect(event('ignored-1', 'x', 0));
    await runner.collect(event('ignored-2', 'DONE', 0));
    expect(published).toEqual(['bob']);
  });

  it('on failure publishes nothing, completes normally, keeps the group and retries on the next tick', async () => {
    let fail = true;
    const summariser: Summariser<LevelEvent<Item>> = {
      summarise: async (events, previous) => {
        if (fail) throw new Error('summariser down');
        return new VerbatimContentSummariser(renderItem).summarise(events.map((e) => e.payload), previous);
      },
    };
    const { runner, published, failures } = harness(summariser);
    await expect(runner.collect(event('t1', 'DONE', 0))).resolves.toBe(false);
    expect(published).toHaveLength(0);
    expect(failures).toEqual([{ key: 't1', error: new Error('summariser down') }]);
    expect(runner.pendingKeys).toEqual(['t1']);

    await expect(runner.tick(1)).resolves.toBe(0);
    fail = false;
    expect(await runner.tick(2)).toBe(1);
    expect(published[0].result.text).toBe('- bob: DONE');
    expect(runner.pendingKeys).toEqual([]);
  });

  it('flush emits every group, done or not', async () => {
    const { runner, published } = harness();
    await runner.collect(event('a', 'x', 0));
    await runner.collect(event('b', 'y', 0));
    expect(await runner.flush()).toBe(2);
    expect(published.map((p) => p.key).sort()).toEqual(['a', 'b']);
  });

  it('rejects a non-positive maxIdleMs', () => {
    expect(
      () =>
        new KeyedSummarisationRunner<Item>({
          summariser: new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)),
          isComplete: isDone,
          maxIdleMs: 0,
          onSummary: () => undefined,
        }),
    ).toThrow(RangeError);
  });
});
