import { ChannelInfo, Message, MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import { ChannelSummariser, HeuristicMessageSummariser, InvalidSummaryError, renderMessage, STATE_KEYS } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, SummariseOptions, TEXT_CUT_MARKER, VerbatimContentSummariser } from '@qhorus/blocks-summarisation';
import { message } from './conversation-generator';

type Answer = (items: readonly Message[], previous: SummaryResult | null | undefined) => SummaryResult;

class RecordingSummariser implements ContentSummariser<Message> {
  readonly calls: Array<{ items: readonly Message[]; previous: SummaryResult | null | undefined; options: SummariseOptions | undefined }> = [];
  constructor(
    private readonly answer: Answer = (items) => summaryResult(`summarised ${items.length}`, { by: 'recorder' }),
    readonly ownedStateKeys?: readonly string[],
  ) {}
  async summarise(items: readonly Message[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    this.calls.push({ items, previous, options });
    return this.answer(items, previous);
  }
}

const channel: ChannelInfo = { name: 'ops', description: 'Release coordination' };
const CAP = 300;
const json = (r: SummaryResult, key: string) => JSON.parse(r.annotations[key]);

describe('ChannelSummariser (the composition of a strategy with the state tracker)', () => {
  it('returns the previous result for an empty batch without calling the delegate', async () => {
    const delegate = new RecordingSummariser();
    const previous = summaryResult('before', { k: 'v' });
    const hook = new ChannelSummariser(delegate);
    await expect(hook.update({ channel, previous, coversThroughSeq: 10, messages: [] })).resolves.toBe(previous);
    expect(delegate.calls).toHaveLength(0);
  });

  it('returns an empty result for an empty first batch', async () => {
    const delegate = new RecordingSummariser();
    const result = await new ChannelSummariser(delegate).update({ channel, previous: null, coversThroughSeq: 0, messages: [] });
    expect(result).toEqual({ text: '', annotations: {} });
    expect(delegate.calls).toHaveLength(0);
  });

  it('passes the batch in order, the previous result, the description as preamble and the state as grounding', async () => {
    const delegate = new RecordingSummariser();
    const previous = summaryResult('before', {});
    const messages = [
      message(1, { type: MessageType.QUERY, sender: 'a', target: 'b', correlationId: 'q1', content: 'who owns it?' }),
      message(2, { type: MessageType.STATUS, sender: 'b' }),
      message(3, { type: MessageType.STATUS, sender: 'a', content: 'Decision: ship on Friday' }),
    ];
    const result = await new ChannelSummariser(delegate).update({ channel, previous, coversThroughSeq: 0, messages });
    expect(result.text).toBe('summarised 3');
    const [call] = delegate.calls;
    expect(call.items.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(call.previous).toBe(previous);
    expect(call.options?.preamble).toBe('Release coordination');
    const grounding = call.options?.grounding ?? [];
    expect(grounding.map((g) => g.title)).toEqual(['Open requests (1, newest first)', 'Decisions (1, newest first)', 'Participants (2, most active first)']);
    expect(grounding[0].lines[0]).toMatch(/^#1 QUERY a→b \[general\] \(corr q1\).*: who owns it\?$/);
    expect(grounding[1].lines).toEqual(['#3 a [general]: Decision: ship on Friday']);
    expect(grounding[2].lines).toEqual(['a (2 messages)', 'b (1 messages)']);
  });

  it('passes a null description through', async () => {
    const delegate = new RecordingSummariser();
    await new ChannelSummariser(delegate).update({
      channel: { name: 'x', description: null },
      previous: null,
      coversThroughSeq: 0,
      messages: [message(1, { type: MessageType.STATUS, sender: 'a' })],
    });
    expect(delegate.calls[0].options?.preamble).toBeNull();
  });

  it('puts the tracker’s state keys on top of a text-only strategy’s keys, batch after batch', async () => {
    // Writes only text, and a stale value under a state key, which the tracker must override.
    const delegate = new RecordingSummariser((items, previous) =>
      summaryResult(`seen ${items.length}`, { ...previous?.annotations, mine: 'x', [STATE_KEYS.openThreads]: '["stale"]' }),
    );
    const hook = new ChannelSummariser(delegate);
    const first = await hook.update({
      channel,
      previous: null,
      coversThroughSeq: 0,
      messages: [message(1, { type: MessageType.COMMAND, sender: 'a', target: 'b', correlationId: 'c1' }), message(2, { type: MessageType.QUERY, sender: 'c', correlationId: 'q2' })],
    });
    expect(first.annotations.mine).toBe('x');
    expect(json(first, STATE_KEYS.openThreads).map((t: { correlationId: string }) => t.correlationId)).toEqual(['c1', 'q2']);
    const second = await hook.update({
      channel,
      previous: first,
      coversThroughSeq: 2,
      messages: [message(3, { type: MessageType.DONE, sender: 'b', correlationId: 'c1' }), message(4, { type: MessageType.STATUS, sender: 'd' })],
    });
    expect(json(second, STATE_KEYS.openThreads)).toEqual([{ correlationId: 'q2', type: 'QUERY', sender: 'c', seq: 2 }]);
    expect(json(second, STATE_KEYS.participants)).toEqual(['a', 'c', 'b', 'd']);
    expect(second.text).toBe('seen 2');
  });

  it('leaves a state key the strategy opts out of (ownedStateKeys) to the strategy', async () => {
    const delegate = new RecordingSummariser(() => summaryResult('mine', { [STATE_KEYS.topics]: '["my own"]' }), [STATE_KEYS.topics, 'notAStateKey']);
    const result = await new ChannelSummariser(delegate).update({ channel, previous: null, coversThroughSeq: 0, messages: [message(1, { type: MessageType.STATUS, sender: 'a', topic: 'build' })] });
    expect(result.annotations[STATE_KEYS.topics]).toBe('["my own"]');
    expect(result.annotations[STATE_KEYS.participants]).toBe('["a"]');
  });

  it('cuts a strategy’s text above the cap at a line boundary, with a marker, flagged textTruncated; a later text within the cap clears the flag', async () => {
    const long = Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
    let answer = long;
    const delegate = new RecordingSummariser(() => summaryResult(answer, {}));
    const hook = new ChannelSummariser(delegate, { textMaxChars: CAP });
    const batch = [message(1, { type: MessageType.STATUS, sender: 'a' })];
    const cut = await hook.update({ channel, previous: null, coversThroughSeq: 0, messages: batch });
    expect(cut.text.length).toBeLessThanOrEqual(CAP);
    expect(cut.text.endsWith(`\n${TEXT_CUT_MARKER}`)).toBe(true);
    expect(long.startsWith(cut.text.slice(0, -TEXT_CUT_MARKER.length - 1))).toBe(true);
    expect(long.split('\n')).toEqual(expect.arrayContaining(cut.text.split('\n').slice(0, -1)));
    expect(cut.annotations.textTruncated).toBe('true');

    answer = 'short again';
    const next = await hook.update({ channel, previous: cut, coversThroughSeq: 1, messages: [message(2, { type: MessageType.STATUS, sender: 'a' })] });
    // The strategy never sees the flag (it describes the previous text, not the one it writes).
    expect(delegate.calls[1].previous?.annotations.textTruncated).toBeUndefined();
    expect(next.text).toBe('short again');
    expect(next.annotations).not.toHaveProperty('textTruncated');
  });

  it('hands the strategy a previous text within the cap, even when the stored one is longer (a legacy or manual text)', async () => {
    const delegate = new RecordingSummariser();
    const previous = summaryResult('y'.repeat(CAP * 3), { k: 'v' });
    await new ChannelSummariser(delegate, { textMaxChars: CAP }).update({ channel, previous, coversThroughSeq: 0, messages: [message(1, { type: MessageType.STATUS, sender: 'a' })] });
    expect(delegate.calls[0].previous?.text.length).toBeLessThanOrEqual(CAP);
    expect(delegate.calls[0].previous?.annotations.k).toBe('v');
  });

  it('after the heuristic, a strategy that builds on the text gets the report of the state as it is now, not the stale one (a switch to verbatim)', async () => {
    const asked = message(1, { type: MessageType.QUERY, sender: 'alice', correlationId: 'A', content: 'is A done?' });
    const before = await new ChannelSummariser(new HeuristicMessageSummariser()).update({ channel, previous: null, coversThroughSeq: 0, messages: [asked] });
    expect(before.text).toContain('Open threads (1)');
    const answered = message(2, { type: MessageType.RESPONSE, sender: 'bob', correlationId: 'A', content: 'A is done' });
    const after = await new ChannelSummariser(new VerbatimContentSummariser(renderMessage)).update({ channel, previous: before, coversThroughSeq: 1, messages: [answered] });
    expect(json(after, STATE_KEYS.openThreads)).toEqual([]);
    expect(after.text).not.toContain('Open threads (1)');
    expect(after.text).toContain('Open threads: none');
    expect(after.text).toContain('A is done');
    expect(after.annotations.tier).toBe('verbatim');
  });

  it.each([
    ['a blank text', () => summaryResult('  \n ', {}), /returned a blank summary/],
    ['a non-string annotation', () => ({ text: 'ok', annotations: { count: 3 } }) as unknown as SummaryResult, /non-string annotation 'count' \(a number\)/],
    ['no result at all', () => undefined as unknown as SummaryResult, /returned a blank summary/],
    ['annotations that are an array', () => ({ text: 'ok', annotations: ['x'] }) as unknown as SummaryResult, /not an object of strings/],
  ])('rejects %s, naming the strategy (nothing merged)', async (_, answer, reason) => {
    const hook = new ChannelSummariser(new RecordingSummariser(answer), { name: 'custom' });
    const update = hook.update({ channel, previous: null, coversThroughSeq: 0, messages: [message(1, { type: MessageType.STATUS, sender: 'a' })] });
    await expect(update).rejects.toBeInstanceOf(InvalidSummaryError);
    await expect(update).rejects.toThrow(reason);
    await expect(update).rejects.toThrow(/summariser 'custom'/);
  });

  it('account(): the state after a range without running the strategy, the previous text kept', async () => {
    const delegate = new RecordingSummariser();
    const hook = new ChannelSummariser(delegate);
    const previous = summaryResult('kept text', { foreign: 'kept' });
    const after = hook.account(previous, [
      message(1, { type: MessageType.QUERY, sender: 'a', correlationId: 'q' }),
      message(2, { type: MessageType.RESPONSE, sender: 'b', correlationId: 'q' }),
      message(3, { type: MessageType.COMMAND, sender: 'a', correlationId: 'c' }),
    ]);
    expect(delegate.calls).toHaveLength(0);
    expect(after.text).toBe('kept text');
    expect(after.annotations.foreign).toBe('kept');
    expect(json(after, STATE_KEYS.openThreads).map((t: { correlationId: string }) => t.correlationId)).toEqual(['c']);
  });
});

describe('ChannelSummariser.degrade (a plain llm channel whose model failed)', () => {
  /** Room for the report to list each thread. */
  const REPORT_CAP = 2_000;
  const opened = [
    message(1, { type: MessageType.QUERY, sender: 'a', correlationId: 'q1', content: 'which build?' }),
    message(2, { type: MessageType.COMMAND, sender: 'a', correlationId: 'c1', content: 'ship it' }),
  ];
  const answered = [message(3, { type: MessageType.RESPONSE, sender: 'b', correlationId: 'q1', content: 'build 41' })];
  const openIds = (r: SummaryResult) => json(r, STATE_KEYS.openThreads).map((o: { correlationId: string }) => o.correlationId);

  it('commits the true state with the heuristic report as the text, tier=grouped, degraded=true and the reason; the next success drops the marks', async () => {
    const model = new RecordingSummariser((items, previous) => summaryResult(`model on ${items.length}`, { ...(previous?.annotations ?? {}), tier: 'synthesised', model: 'm' }));
    const hook = new ChannelSummariser(model, { textMaxChars: REPORT_CAP });
    const first = await hook.update({ channel, previous: null, coversThroughSeq: 0, messages: opened });
    expect(openIds(first)).toEqual(['q1', 'c1']);

    const reason = 'LLM summariser request failed (openai, model m): HTTP 500 server_error: down';
    const degraded = hook.degrade({ channel, previous: first, coversThroughSeq: 2, messages: answered }, reason);
    expect(openIds(degraded)).toEqual(['c1']);
    expect(degraded.annotations).toMatchObject({ tier: 'grouped', itemCount: '1', degraded: 'true', degradedReason: reason, model: 'm' });
    expect(degraded.text).toContain('Release coordination');
    expect(degraded.text).toMatch(/Open threads \(1\)[^\n]*\n- .*c1/);
    expect(degraded.text.length).toBeLessThanOrEqual(REPORT_CAP);
    expect(model.calls).toHaveLength(1); // no model call

    const recovered = await hook.update({ channel, previous: degraded, coversThroughSeq: 3, messages: [message(4, { type: MessageType.DONE, sender: 'b', correlationId: 'c1', content: 'shipped' })] });
    expect(recovered.text).toBe('model on 1');
    expect(recovered.annotations).not.toHaveProperty('degraded');
    expect(recovered.annotations).not.toHaveProperty('degradedReason');
    expect(openIds(recovered)).toEqual([]);
    // The model was handed the report of the state, not a stale text.
    expect(model.calls[1].previous?.text).toContain('Open threads: none');
  });

  it('keeps a long reason to one bounded line', () => {
    const hook = new ChannelSummariser(new RecordingSummariser());
    const result = hook.degrade({ channel, previous: null, coversThroughSeq: 0, messages: opened }, `boom\n${'x'.repeat(500)}`);
    expect(result.annotations.degradedReason).toMatch(/^boom x+…$/);
    expect(result.annotations.degradedReason.length).toBe(200);
  });
});
