import { SummaryResult, summaryResult } from '@qhorus/api';
import {
  ContentSummariserToSummariser,
  LevelEvent,
  SummarisationRunner,
  Summariser,
  VerbatimContentSummariser,
  WindowPolicy,
} from '@qhorus/blocks-summarisation';
import { Item, RecordingSummariser, renderItem } from './fixtures';

const event = (n: number, at: number, key = 'channel'): LevelEvent<Item> => ({
  key,
  level: 0,
  at,
  payload: { sender: 'alice', text: `m${n}` },
});

function harness(summariser: Summariser<LevelEvent<Item>>, policy = new WindowPolicy({ maxCount: 2, maxAgeMs: 1_000 })) {
  const published: { result: SummaryResult; batch: readonly LevelEvent<Item>[] }[] = [];
  const failures: { error: unknown; batch: readonly LevelEvent<Item>[] }[] = [];
  const runner = new SummarisationRunner<Item>({
    summariser,
    policy,
    onSummary: (result, batch) => published.push({ result, batch }),
    onFailure: (error, batch) => failures.push({ error, batch }),
  });
  return { runner, published, failures };
}

describe('SummarisationRunner', () => {
  it('flushes on tick only when the window is full (count bound, inclusive)', async () => {
    const { runner, published } = harness(new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)));
    runner.collect(event(1, 0));
    expect(await runner.tick(10)).toBe(false);
    expect(published).toHaveLength(0);
    runner.collect(event(2, 5));
    expect(await runner.tick(10)).toBe(true);
    expect(published).toHaveLength(1);
    expect(published[0].result.text).toBe('- alice: m1\n- alice: m2');
    expect(published[0].batch.map((e) => e.payload.text)).toEqual(['m1', 'm2']);
    expect(runner.pending).toBe(0);
  });

  it('flushes on tick when the oldest event reaches maxAgeMs (inclusive)', async () => {
    const { runner, published } = harness(new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)));
    runner.collect(event(1, 1_000));
    expect(await runner.tick(1_999)).toBe(false);
    expect(await runner.tick(new Date(2_000))).toBe(true);
    expect(published).toHaveLength(1);
  });

  it('continues from the previous result on each flush', async () => {
    const { runner, published } = harness(new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)));
    runner.collect(event(1, 0));
    await runner.flush();
    runner.collect(event(2, 1));
    await runner.flush();
    expect(published[1].result.text).toBe('- alice: m1\n\n- alice: m2');
    expect(runner.current).toBe(published[1].result);
  });

  it('flush with nothing collected publishes nothing', async () => {
    const { runner, published } = harness(new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)));
    expect(await runner.flush()).toBe(false);
    expect(published).toHaveLength(0);
  });

  it('a failed tick publishes nothing, keeps the previous result, completes normally and retries the batch', async () => {
    const content = new RecordingSummariser<Item>('s');
    const { runner, published, failures } = harness(new ContentSummariserToSummariser(content));
    runner.collect(event(1, 0));
    await runner.flush();
    const before = runner.current;

    content.error = new Error('LLM down');
    runner.collect(event(2, 10));
    runner.collect(event(3, 20));
    await expect(runner.tick(30)).resolves.toBe(false);
    expect(published).toHaveLength(1);
    expect(failures).toHaveLength(1);
    expect((failures[0].error as Error).message).toBe('LLM down');
    expect(failures[0].batch.map((e) => e.payload.text)).toEqual(['m2', 'm3']);
    expect(runner.current).toBe(before);
    expect(runner.pending).toBe(2);

    content.error = null;
    runner.collect(event(4, 40));
    expect(await runner.tick(50)).toBe(true);
    expect(published[1].batch.map((e) => e.payload.text)).toEqual(['m2', 'm3', 'm4']);
    expect(content.calls.at(-1)!.previous).toBe(before);
  });

  it('a throwing failure callback still lets tick complete', async () => {
    const runner = new SummarisationRunner<Item>({
      summariser: { summarise: () => Promise.reject(new Error('x')) },
      policy: new WindowPolicy({ maxCount: 1 }),
      onSummary: () => undefined,
      onFailure: () => {
        throw new Error('callback broke');
      },
    });
    runner.collect(event(1, 0));
    await expect(runner.tick(0)).resolves.toBe(false);
  });

  it('a throwing subscriber is reported as a failure but the result is kept', async () => {
    const failures: unknown[] = [];
    const runner = new SummarisationRunner<Item>({
      summariser: new ContentSummariserToSummariser(new VerbatimContentSummariser(renderItem)),
      policy: new WindowPolicy({ maxCount: 1 }),
      onSummary: () => {
        throw new Error('subscriber broke');
      },
      onFailure: (error) => failures.push(error),
    });
    runner.collect(event(1, 0));
    await expect(runner.flush()).resolves.toBe(true);
    expect(runner.current?.text).toBe('- alice: m1');
    expect(runner.pending).toBe(0);
    expect(failures).toHaveLength(1);
  });

  it('serialises concurrent flushes so each continues from the last result', async () => {
    const seen: (SummaryResult | null)[] = [];
    let n = 0;
    const slow: Summariser<LevelEvent<Item>> = {
      async summarise(events, previous) {
        seen.push(previous);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return summaryResult(`v${++n}`);
      },
    };
    const { runner, published } = harness(slow);
    runner.collect(event(1, 0));
    const first = runner.flush();
    await new Promise((resolve) => setImmediate(resolve)); // the first summarise call is now in flight
    expect(seen).toHaveLength(1);
    runner.collect(event(2, 1));
    const second = runner.flush();
    await Promise.all([first, second]);
    expect(published.map((p) => p.result.text)).toEqual(['v1', 'v2']);
    expect(seen[1]?.text).toBe('v1');
  });

  it('starts from a given previous result', async () => {
    const content = new RecordingSummariser<Item>('s');
    const previous = summaryResult('restored', { foreign: 'x' });
    const runner = new SummarisationRunner<Item>({
      summariser: new ContentSummariserToSummariser(content),
      policy: new WindowPolicy({ maxCount: 1 }),
      onSummary: () => undefined,
      previous,
    });
    runner.collect(event(1, 0));
    await runner.flush();
    expect(content.calls[0].previous).toBe(previous);
    expect(runner.current?.annotations.foreign).toBe('x');
  });
});

describe('ContentSummariserToSummariser', () => {
  it('passes payloads in order, the previous result and fixed options to the content summariser', async () => {
    const content = new RecordingSummariser<Item>('s');
    const adapter = new ContentSummariserToSummariser(content, { preamble: 'purpose' });
    const previous = summaryResult('P');
    const result = await adapter.summarise([event(1, 0), event(2, 1)], previous);
    expect(content.calls[0].items.map((i) => i.text)).toEqual(['m1', 'm2']);
    expect(content.calls[0].previous).toBe(previous);
    expect(content.calls[0].options).toEqual({ preamble: 'purpose' });
    expect(result.text).toBe('s(2)');
  });
});
