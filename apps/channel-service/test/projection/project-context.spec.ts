import { MessageType } from '@qhorus/api';
import { estimateTokens } from '@qhorus/blocks-summarisation';
import { conversation, message, unitTexts } from './message-fixtures';
import { heuristicDigester } from '../../src/projection/digest';
import { ProjectionInput, projectContext } from '../../src/projection/project-context';
import { validateProjection } from '../../src/projection/shape-validator';

const digester = heuristicDigester();
const SUMMARY = { text: 'Alice leads; the release is blocked on the migration.', version: 3, coversThroughSeq: 40 };

function project(over: Partial<ProjectionInput> = {}) {
  const input: ProjectionInput = {
    summary: SUMMARY,
    tail: conversation(41, 4, ['alice', 'bob']),
    tailComplete: true,
    viewer: 'bob',
    keepLast: 10,
    maxTokens: 4000,
    format: 'anthropic',
    ...over,
  };
  return projectContext(input, digester).then((p) => {
    expect(validateProjection(p)).toEqual([]);
    expect(p.projectedTokens).toBeLessThanOrEqual(input.maxTokens);
    return p;
  });
}

describe('projectContext', () => {
  it('puts the summary first with a marker naming its seq range, then the tail: the viewer as assistant, others as tagged users', async () => {
    const p = await project();
    expect(p.text).toBeUndefined();
    expect(p.messages).toEqual(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: `[Summary of messages 1–40 (v3). Expand with check_messages after_seq=0.]\n${SUMMARY.text}` },
            { type: 'text', text: '[alice · STATUS #41] note 41' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'note 42' }] },
        { role: 'user', content: [{ type: 'text', text: '[alice · STATUS #43] note 43' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'note 44' }] },
      ],
    );
    expect(p).toMatchObject({ summaryVersion: 3, coversThroughSeq: 40, digest: null, verbatimFromSeq: 41, truncatedSeqs: [] });
  });

  it('keeps the summary block byte-identical whatever the tail, and changes it only with the version', async () => {
    const first = await project({ tail: conversation(41, 2, ['alice']) });
    const later = await project({ tail: conversation(41, 120, ['alice', 'carol']), maxTokens: 600, keepLast: 3 });
    const block = (p: any) => p.messages[0].content[0].text;
    expect(block(later)).toBe(block(first));
    expect(later.digest).not.toBeNull();
    const next = await project({ summary: { ...SUMMARY, version: 4, coversThroughSeq: 44 }, tail: [] });
    expect(block(next)).not.toBe(block(first));
  });

  it('renders openai as one message per unit (no merging) and text as one tagged string', async () => {
    const openai = await project({ format: 'openai' });
    expect(openai.messages!.map((m) => m.role)).toEqual(['user', 'user', 'assistant', 'user', 'assistant']);
    expect(openai.messages!.every((m) => m.content.length === 1 && m.content[0].type === 'text')).toBe(true);
    const text = await project({ format: 'text' });
    expect(text.messages).toBeUndefined();
    expect(text.text).toBe(
      [`[Summary of messages 1–40 (v3). Expand with check_messages after_seq=0.]\n${SUMMARY.text}`, '[alice · STATUS #41] note 41', '[bob (you) · STATUS #42] note 42', '[alice · STATUS #43] note 43', '[bob (you) · STATUS #44] note 44'].join('\n\n'),
    );
  });

  it('tags replies, threads and targets so an agent can answer without another call', async () => {
    const tail = [
      message(41, 'alice', 'who owns it?', { type: MessageType.QUERY, correlationId: 'c-1' }),
      message(42, 'carol', 'over to you', { type: MessageType.HANDOFF, target: 'bob', correlationId: 'c-1', inReplyTo: 41 }),
    ];
    const p = await project({ tail, format: 'openai' });
    expect(p.messages!.slice(1).map((m) => m.content[0].text)).toEqual(['[alice · QUERY #41 · corr c-1] who owns it?', '[carol · HANDOFF #42 → bob · corr c-1 · re #41] over to you']);
  });

  it('starts an empty channel with a non-blank marker, and shows an own contentless DONE as [DONE]', async () => {
    const empty = await project({ summary: { text: '', version: 0, coversThroughSeq: 0 }, tail: [] });
    expect(empty.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: '[No channel summary yet; messages from seq 1 follow.]' }] }]);
    const done = await project({ tail: [message(41, 'alice', 'done?'), message(42, 'bob', '', { type: MessageType.DONE })] });
    expect(done.messages![1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[DONE]' }] });
  });

  it('handles a tail shorter than keepLast, and keepLast 0', async () => {
    expect((await project({ keepLast: 200, tail: conversation(41, 1, ['alice']) })).verbatimFromSeq).toBe(41);
    const none = await project({ keepLast: 0, maxTokens: 256, tail: conversation(41, 100, ['alice', 'bob']) });
    expect(none.digest).toMatchObject({ fromSeq: 41 });
  });

  it('over budget, folds the oldest into a digest whose marker names the range, keeping the newest verbatim', async () => {
    const p = await project({ tail: conversation(41, 60, ['alice', 'bob', 'carol'], (s) => `step ${s}: ${'detail '.repeat(20)}`), maxTokens: 1200, keepLast: 5 });
    expect(p.digest).toMatchObject({ fromSeq: 41 });
    const digest = p.digest!;
    expect(p.verbatimFromSeq).toBe(digest.toSeq + 1);
    expect(p.verbatimFromSeq).toBeLessThanOrEqual(96);
    const texts = unitTexts(p);
    expect(texts[1]).toMatch(new RegExp(`^\\[Digest of messages 41–${digest.toSeq}, not yet in the summary\\. Expand with check_messages after_seq=40\\.\\]\\n`));
    expect(texts[1]).toMatch(/Participants \(3\)/);
    expect(texts[texts.length - 1]).toMatch(/step 100: /);
    expect(p.truncatedSeqs).toEqual([]);
  });

  it('names unread older messages in the digest when the tail was not read whole', async () => {
    const p = await project({ tail: conversation(500, 3, ['alice']), tailComplete: false });
    expect(p.digest).toEqual({ fromSeq: 41, toSeq: 499, messages: 0 });
    expect(unitTexts(p)[1]).toBe('[Digest of messages 41–499, not yet in the summary. Expand with check_messages after_seq=40.]');
  });

  it('cuts a kept message that alone exceeds the budget, with a marker saying how to read it whole', async () => {
    const huge = message(41, 'alice', 'word '.repeat(5000));
    const p = await project({ tail: [huge], keepLast: 1, maxTokens: 300 });
    expect(p.truncatedSeqs).toEqual([41]);
    const texts = unitTexts(p);
    expect(texts[1]).toMatch(/^\[alice · STATUS #41\] word word/);
    expect(texts[1]).toMatch(/… \[cut to fit maxTokens; check_messages after_seq=40 limit=1 returns it whole\]$/);
  });

  it('cuts a summary longer than half the budget, the same way on every call', async () => {
    const long = { text: 'state '.repeat(3000), version: 9, coversThroughSeq: 40 };
    const a = await project({ summary: long, maxTokens: 1000, tail: [] });
    const b = await project({ summary: long, maxTokens: 1000 });
    const block = unitTexts(a)[0];
    expect(block).toMatch(/summary cut to fit maxTokens; get_channel_summary returns it whole\]$/);
    expect(estimateTokens(block)).toBeLessThanOrEqual(500);
    expect(unitTexts(b)[0]).toBe(block);
  });
});
