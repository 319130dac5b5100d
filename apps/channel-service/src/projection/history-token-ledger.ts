import { Message } from '@qhorus/api';
import { taggedText } from './message-rendering';
import { unitCost } from './token-cost';

/** Channels whose running count is remembered (least recently used forgotten first). */
export const HISTORY_LEDGER_CHANNELS = 10_000;
/** Messages read per query while catching up. */
export const HISTORY_LEDGER_PAGE = 1000;

export type HistoryPageReader = (afterSeq: number, throughSeq: number, limit: number) => Promise<Message[]>;

/** What one message of the history costs: tagged with its sender, as if shown verbatim. */
export const historyMessageCost = (m: Message): number => unitCost(taggedText(m));

/**
 * Estimated tokens of a channel's whole history (every non-EVENT message verbatim), for the
 * projection's `historyTokens`. Messages are never rewritten, so a running count per channel
 * only ever moves forward: each call reads just the messages since the last one, and the total
 * work is linear in the channel's length. In memory, per instance; a forgotten channel is recounted.
 */
export class HistoryTokenLedger {
  private readonly counts = new Map<string, { throughSeq: number; tokens: number }>();

  constructor(private readonly capacity = HISTORY_LEDGER_CHANNELS) {}

  async tokensThrough(channelId: string, throughSeq: number, read: HistoryPageReader): Promise<number> {
    const known = this.counts.get(channelId);
    // A count ahead of the request (a concurrent, newer read) cannot be rewound: recount from 0.
    const start = known && known.throughSeq <= throughSeq ? known : { throughSeq: 0, tokens: 0 };
    let { tokens } = start;
    let after = start.throughSeq;
    while (after < throughSeq) {
      const page = await read(after, throughSeq, HISTORY_LEDGER_PAGE);
      for (const m of page) tokens += historyMessageCost(m);
      if (page.length < HISTORY_LEDGER_PAGE) break;
      after = page[page.length - 1].seq;
    }
    this.remember(channelId, throughSeq, tokens);
    return tokens;
  }

  private remember(channelId: string, throughSeq: number, tokens: number): void {
    const known = this.counts.get(channelId);
    if (known && known.throughSeq > throughSeq) return;
    this.counts.delete(channelId); // re-insert: Map order is the LRU order
    this.counts.set(channelId, { throughSeq, tokens });
    if (this.counts.size > this.capacity) this.counts.delete(this.counts.keys().next().value!);
  }
}
