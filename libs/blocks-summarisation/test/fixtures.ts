import { SummaryResult, summaryResult } from '@qhorus/api';
import { ContentSummariser, ItemRenderer, SummariseOptions, TIER_GROUPED, overlayAnnotations } from '@qhorus/blocks-summarisation';

/** A minimal item: who said what. */
export interface Item {
  readonly sender: string;
  readonly text: string;
}

export const renderItem: ItemRenderer<Item> = (item) => `${item.sender}: ${item.text}`;

export function items(count: number, senders: readonly string[] = ['alice', 'bob']): Item[] {
  return Array.from({ length: count }, (_, i) => ({ sender: senders[i % senders.length], text: `message ${i + 1}` }));
}

export const PARTICIPANTS = 'participants';

/** A fake heuristic ("grouped") tier that accumulates a JSON array of participants. */
export class FakeGroupedSummariser implements ContentSummariser<Item> {
  async summarise(batch: readonly Item[], previous?: SummaryResult | null): Promise<SummaryResult> {
    const known: string[] = JSON.parse(previous?.annotations[PARTICIPANTS] ?? '[]');
    const participants = [...new Set([...known, ...batch.map((item) => item.sender)])];
    return summaryResult(
      `Participants: ${participants.join(', ')}. ${batch.length} new messages.`,
      overlayAnnotations(previous, { tier: TIER_GROUPED, itemCount: String(batch.length), [PARTICIPANTS]: JSON.stringify(participants) }),
    );
  }
}

/** Records each call and answers with its name; fails when `error` is set. */
export class RecordingSummariser<T> implements ContentSummariser<T> {
  readonly calls: { items: readonly T[]; previous: SummaryResult | null | undefined; options: SummariseOptions | undefined }[] = [];
  error: Error | null = null;

  constructor(readonly name: string) {}

  async summarise(batch: readonly T[], previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
    this.calls.push({ items: batch, previous, options });
    if (this.error) throw this.error;
    return summaryResult(`${this.name}(${batch.length})`, overlayAnnotations(previous, { tier: this.name }));
  }
}
