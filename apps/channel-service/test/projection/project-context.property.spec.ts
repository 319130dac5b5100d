import { Message, MESSAGE_TYPES, MessageType } from '@qhorus/api';
import { estimateTokens } from '@qhorus/blocks-summarisation';
import fc from 'fast-check';
import { message, unitTexts } from './message-fixtures';
import { CONTEXT_FORMATS } from '../../src/projection/context-format';
import { heuristicDigester } from '../../src/projection/digest';
import { projectContext } from '../../src/projection/project-context';
import { MAX_KEEP_LAST, requiredMaxTokens } from '../../src/projection/projection-limits';
import { validateProjection } from '../../src/projection/shape-validator';
import { renderSummaryBlock } from '../../src/projection/summary-block';

const SENDERS = ['alice', 'bob', 'carol', 'd.e-v_1'];
const AGENT_TYPES = MESSAGE_TYPES.filter((t) => t !== MessageType.EVENT); // the projection never sees EVENTs
const CONTENT_OPTIONAL = new Set<MessageType>([MessageType.DONE, MessageType.HANDOFF]);

/** Texts that stress the estimator and the shape rules: CJK, symbols, blank-ish, long, multi-line. */
const text = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.constantFrom('漢字かなカナ한국어 '.repeat(30), '!!!???...;;;'.repeat(40), ' \n\t ok \n ', '```\ncode\n```\n'),
  fc.nat({ max: 4000 }).map((n) => 'word '.repeat(n)),
);

const draft = fc.record({
  sender: fc.constantFrom(...SENDERS),
  type: fc.constantFrom(...AGENT_TYPES),
  content: text,
  correlationId: fc.option(fc.uuid(), { nil: null }),
  target: fc.option(fc.constantFrom(...SENDERS), { nil: null }),
});

const channel = fc
  .record({
    version: fc.nat({ max: 50 }),
    summaryText: text,
    coversThroughSeq: fc.nat({ max: 10_000 }),
    hiddenBefore: fc.nat({ max: 3 }),
    drafts: fc.array(draft, { maxLength: 80 }),
    keepLast: fc.oneof(fc.nat({ max: 12 }), fc.nat({ max: MAX_KEEP_LAST })),
    extraTokens: fc.oneof(fc.nat({ max: 300 }), fc.nat({ max: 20_000 })),
    format: fc.constantFrom(...CONTEXT_FORMATS),
    viewer: fc.constantFrom(...SENDERS, 'zed'),
  })
  .map((c) => {
    const first = c.coversThroughSeq + 1 + c.hiddenBefore;
    const tail: Message[] = c.drafts.map((d, i) =>
      message(first + i, d.sender, CONTENT_OPTIONAL.has(d.type) && d.content.trim() === '' ? '' : d.content.trim() ? d.content : `x${d.content}`, {
        type: d.type,
        correlationId: d.correlationId,
        target: d.target,
      }),
    );
    const summary = c.version === 0 ? { text: '', version: 0, coversThroughSeq: c.coversThroughSeq } : { text: c.summaryText, version: c.version, coversThroughSeq: c.coversThroughSeq };
    return { summary, tail, tailComplete: c.hiddenBefore === 0, keepLast: c.keepLast, maxTokens: requiredMaxTokens(c.keepLast) + c.extraTokens, format: c.format, viewer: c.viewer };
  });

describe('projectContext over random channels (property)', () => {
  const digester = heuristicDigester();

  it('is always a valid transcript, within maxTokens, summary block first and newest keepLast messages present', async () => {
    await fc.assert(
      fc.asyncProperty(channel, async (input) => {
        const p = await projectContext(input, digester);
        expect(validateProjection(p)).toEqual([]);
        expect(p.projectedTokens).toBeLessThanOrEqual(input.maxTokens);
        // Recounted independently of the projection's own bookkeeping.
        const texts = unitTexts(p);
        expect(texts.reduce((sum, t) => sum + estimateTokens(t), 0)).toBeLessThanOrEqual(input.maxTokens);
        expect(texts[0].startsWith(renderSummaryBlock(input.summary, input.maxTokens))).toBe(true);
        const kept = input.tail.slice(Math.max(0, input.tail.length - input.keepLast)).map((m) => m.seq);
        if (kept.length > 0) expect(p.verbatimFromSeq).toBeLessThanOrEqual(kept[0]);
        if (input.tail.length > 0 && !input.tailComplete) expect(p.digest?.fromSeq).toBe(input.summary.coversThroughSeq + 1);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the summary block byte-identical when only the tail changes', async () => {
    await fc.assert(
      fc.asyncProperty(channel, fc.array(draft, { maxLength: 20 }), async (input, more) => {
        const grown = [...input.tail, ...more.map((d, i) => message((input.tail.at(-1)?.seq ?? input.summary.coversThroughSeq) + 1 + i, d.sender, `y${d.content}`))];
        const before = await projectContext({ ...input, format: 'anthropic' }, digester);
        const after = await projectContext({ ...input, tail: grown, format: 'anthropic' }, digester);
        expect(unitTexts(after)[0]).toBe(unitTexts(before)[0]);
      }),
      { numRuns: 100 },
    );
  });
});
