import { Message } from '@qhorus/api';
import { CJK_TOKENS_PER_CHAR, estimateTokenParts, LATIN_CHARS_PER_TOKEN } from '@qhorus/blocks-summarisation';
import { TaggableMessage, taggedText } from '../projection/message-rendering';
import { UNIT_OVERHEAD_TOKENS } from '../projection/projection-limits';
import { unitCost } from '../projection/token-cost';

/**
 * What one message costs in a projection (`historyTokens`, `pendingTokens`, the token trigger):
 * tagged with its sender, as if shown verbatim. EVENT telemetry is never projected: it costs 0.
 */
export function projectedMessageTokens(m: Message): number {
  return m.type === 'EVENT' ? 0 : unitCost(taggedText(m));
}

/**
 * The part of `projectedMessageTokens` known before the database allocates the seq: the tag
 * shows `#<seq>`, so the estimate still needs the seq's digit count, which the insert statement
 * adds (`tokenEstimateSql`). The digits are one word of their own whatever the seq (between `#`
 * and a space or `]`), so only the character count depends on the seq. null: costs 0 (EVENT).
 */
export interface TokenEstimateBeforeSeq {
  /** CJK tokens plus the per-unit overhead. */
  fixed: number;
  /** Non-CJK characters of the tagged text without the seq's digits. */
  chars: number;
  /** Words and punctuation marks of the tagged text (the seq included). */
  pieces: number;
}

type UnsequencedMessage = Omit<Message, 'seq' | 'id' | 'createdAt' | 'channel'>;

/** A seq of one digit stands in while the tag is measured; its digit is taken off again. */
const PLACEHOLDER_SEQ = 1;

export function tokenEstimateBeforeSeq(m: UnsequencedMessage): TokenEstimateBeforeSeq | null {
  if (m.type === 'EVENT') return null;
  // Only what the tag shows, built field by field: spreading the whole message into a probe cost
  // ~6 µs a message (most of a batch post's estimate), this costs nothing measurable.
  const probe: TaggableMessage = { sender: m.sender, type: m.type, seq: PLACEHOLDER_SEQ, target: m.target, correlationId: m.correlationId, inReplyTo: m.inReplyTo, content: m.content };
  const parts = estimateTokenParts(taggedText(probe));
  return {
    fixed: parts.cjk * CJK_TOKENS_PER_CHAR + UNIT_OVERHEAD_TOKENS,
    chars: parts.otherChars - String(PLACEHOLDER_SEQ).length,
    pieces: parts.pieces,
  };
}

/** `projectedMessageTokens` from the parts and the seq: the arithmetic `tokenEstimateSql` runs in Postgres. */
export function tokensAtSeq(e: TokenEstimateBeforeSeq | null, seq: number): number {
  if (e === null) return 0;
  return e.fixed + Math.max(Math.ceil((e.chars + String(seq).length) / LATIN_CHARS_PER_TOKEN), e.pieces);
}

/**
 * SQL for `tokensAtSeq`, given the placeholders of `fixed`, `chars` and `pieces` (NULL: 0) and an
 * expression for the seq. `pieces` is never 0 for a tagged text (the tag has words), so the
 * estimator's "no words, no Latin tokens" branch needs no counterpart here.
 */
export function tokenEstimateSql(fixed: string, chars: string, pieces: string, seq: string): string {
  return `COALESCE(${fixed}::int + GREATEST(CEIL((${chars}::int + length((${seq})::text))::numeric / ${LATIN_CHARS_PER_TOKEN})::int, ${pieces}::int), 0)`;
}
