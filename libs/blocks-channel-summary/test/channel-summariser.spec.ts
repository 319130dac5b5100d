import { ChannelInfo, Message, MessageType, SummaryResult, summaryResult } from '@qhorus/api';
import { ChannelSummariser } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, SummariseOptions } from '@qhorus/blocks-summarisation';
import { message } from './conversation-generator';

class RecordingSummariser implements ContentSummariser<Message> {
  readonly calls: Array<{ items: readonly Message[]; previous: SummaryResult | null | undefined; options: SummariseOptions | undefined }> = [];
  async summarise(items: readonly Message[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    this.calls.push({ items, previous, options });
    return summaryResult(`summarised ${items.length}`, { by: 'recorder' });
  }
}

const channel: ChannelInfo = { name: 'ops', description: 'Release coordination' };

describe('ChannelSummariser', () => {
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

  it('passes the batch in order, the previous result and the channel description as preamble', async () => {
    const delegate = new RecordingSummariser();
    const previous = summaryResult('before', {});
    const messages = [1, 2, 3].map((seq) => message(seq, { type: MessageType.STATUS, sender: 'a' }));
    const result = await new ChannelSummariser(delegate).update({ channel, previous, coversThroughSeq: 0, messages });
    expect(result.text).toBe('summarised 3');
    expect(delegate.calls).toHaveLength(1);
    expect(delegate.calls[0].items.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(delegate.calls[0].previous).toBe(previous);
    expect(delegate.calls[0].options).toEqual({ preamble: 'Release coordination' });
  });

  it('passes a null description through', async () => {
    const delegate = new RecordingSummariser();
    await new ChannelSummariser(delegate).update({
      channel: { name: 'x', description: null },
      previous: null,
      coversThroughSeq: 0,
      messages: [message(1, { type: MessageType.STATUS, sender: 'a' })],
    });
    expect(delegate.calls[0].options).toEqual({ preamble: null });
  });
});
