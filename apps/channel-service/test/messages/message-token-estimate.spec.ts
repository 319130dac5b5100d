import { MessageType } from '@qhorus/api';
import fc from 'fast-check';
import { taggedText } from '../../src/projection/message-rendering';
import { projectedMessageTokens, tokenEstimateBeforeSeq, tokensAtSeq } from '../../src/messages/message-token-estimate';
import { unitCost } from '../../src/projection/token-cost';
import { message } from '../projection/message-fixtures';

const text = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.constantFrom('', '   ', '会议决定了发布日期', 'リリースは金曜日', '배포 완료', 'mixed 中文 and English, 123!'),
);
const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/);
const types = Object.values(MessageType);

describe('the stored per-message token estimate', () => {
  it('is the projection cost of the tagged message (0 for EVENT, never projected)', () => {
    const m = message(7, 'alice', 'Build the release branch');
    expect(projectedMessageTokens(m)).toBe(unitCost(taggedText(m)));
    expect(projectedMessageTokens({ ...m, type: MessageType.EVENT })).toBe(0);
    expect(tokenEstimateBeforeSeq({ ...m, type: MessageType.EVENT })).toBeNull();
  });

  it('completed with the seq the database allocates, equals the estimate of the stored message, for any message and seq', () => {
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom(...types),
          sender: name,
          content: text,
          target: fc.option(name),
          correlationId: fc.option(fc.string({ maxLength: 40 })),
          inReplyTo: fc.option(fc.integer({ min: 1, max: 10_000_000 })),
        }),
        fc.oneof(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 99_999 }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER })),
        (fields, seq) => {
          const stored = message(seq, fields.sender, fields.content, fields);
          expect(tokensAtSeq(tokenEstimateBeforeSeq(stored), seq)).toBe(projectedMessageTokens(stored));
        },
      ),
    );
  });
});
