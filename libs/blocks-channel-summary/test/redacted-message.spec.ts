import { Message, MessageType, REDACTED_TEXT } from '@qhorus/api';
import { VerbatimContentSummariser } from '@qhorus/blocks-summarisation';
import { HeuristicMessageSummariser, renderMessage } from '@qhorus/blocks-channel-summary';
import { message } from './conversation-generator';

/** A tombstone as the service hands it to summarisers (DESIGN §10): content '', default topic, no metadata. */
function tombstone(seq: number, draft: Parameters<typeof message>[1]): Message {
  return { ...message(seq, draft), content: '', topic: 'general', metadata: null, redacted: true };
}

describe('redacted messages reach summarisers as tombstones', () => {
  it('renders a tombstone as [redacted], with no topic', () => {
    const m = tombstone(12, { type: MessageType.STATUS, sender: 'alice', correlationId: 'c-1' });
    expect(renderMessage(m)).toBe(`#12 STATUS alice (corr c-1): ${REDACTED_TEXT}`);
  });

  it('verbatim lists it as [redacted] among the kept messages', async () => {
    const verbatim = new VerbatimContentSummariser<Message>(renderMessage, { maxChars: 4000 });
    const result = await verbatim.summarise([
      message(1, { type: MessageType.STATUS, sender: 'bob', content: 'all green' }),
      tombstone(2, { type: MessageType.STATUS, sender: 'alice' }),
    ]);
    expect(result.text).toContain('#1 STATUS bob [general]: all green');
    expect(result.text).toContain(`#2 STATUS alice: ${REDACTED_TEXT}`);
  });

  it('the heuristic shows a redacted request and status as [redacted], never blank, and counts no topic for them', async () => {
    const result = await new HeuristicMessageSummariser().summarise([
      message(1, { type: MessageType.STATUS, sender: 'bob', topic: 'deploy', content: 'rolling out' }),
      tombstone(2, { type: MessageType.QUERY, sender: 'alice', correlationId: 'q-1' }),
      tombstone(3, { type: MessageType.STATUS, sender: 'alice' }),
    ]);
    expect(result.text).toContain(REDACTED_TEXT);
    expect(result.text).not.toMatch(/^- .*: *$/m); // no item with blank text
    expect(JSON.parse(result.annotations.topics)).toEqual(['deploy']);
    const open = JSON.parse(result.annotations.openThreads) as { correlationId: string }[];
    expect(open.map((t) => t.correlationId)).toEqual(['q-1']);
  });
});
