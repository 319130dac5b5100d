import { SummaryResult, summaryResult } from '@qhorus/api';
import { ANNOTATION_ITEM_COUNT, ANNOTATION_TIER, TIER_VERBATIM, overlayAnnotations, withTruncationFlag } from './annotations';
import { ContentSummariser, ItemRenderer, SummariseOptions } from './content-summariser';
import { appendSection, previousText } from './summary-text';
import { capText, DEFAULT_SUMMARY_TEXT_MAX_CHARS, validateTextMaxChars } from './text-cap';

/** Prefix of each listed item, a Markdown bullet. */
export const VERBATIM_BULLET = '- ';

export interface VerbatimSummariserOptions {
  /** The text cap. Default DEFAULT_SUMMARY_TEXT_MAX_CHARS. */
  maxChars?: number;
}

/** First line of a verbatim text that left earlier lines out. */
export function leftOutMarker(items: number, earlierText: boolean): string {
  return `… ${earlierText ? 'earlier text and ' : ''}${items} earlier ${items === 1 ? 'item' : 'items'} left out`;
}
const LEFT_OUT_MARKER = /^… (earlier text and )?(\d+) earlier items? left out$/;
/** Room the marker may take (a count of up to 12 digits), its line break included. */
const LEFT_OUT_RESERVE = leftOutMarker(1e11, true).length + 1;

/**
 * The zero-cost tier: lists each item under the previous text, newest last. Exact, and bounded:
 * when the text would cross the cap, the oldest lines go (newest items kept) and a first line says
 * how many earlier items were left out (and whether earlier text, e.g. another tier's summary,
 * went too). The count accumulates over calls. It serves small batches in a tiered setup.
 */
export class VerbatimContentSummariser<T> implements ContentSummariser<T> {
  private readonly maxChars: number;

  constructor(
    private readonly render: ItemRenderer<T>,
    options: VerbatimSummariserOptions = {},
  ) {
    this.maxChars = validateTextMaxChars(options.maxChars ?? DEFAULT_SUMMARY_TEXT_MAX_CHARS);
  }

  async summarise(items: readonly T[], previous?: SummaryResult | null, _options?: SummariseOptions): Promise<SummaryResult> {
    const section = items.map((item) => VERBATIM_BULLET + this.render(item)).join('\n');
    const { text, cut } = this.bounded(appendSection(previousText(previous), section));
    const own = { [ANNOTATION_TIER]: TIER_VERBATIM, [ANNOTATION_ITEM_COUNT]: String(items.length) };
    return summaryResult(text, withTruncationFlag(overlayAnnotations(previous, own), cut));
  }

  /** The newest lines that fit, under a left-out marker; a newest line longer than the cap is cut. */
  private bounded(full: string): { text: string; cut: boolean } {
    if (full.length <= this.maxChars) return { text: full, cut: false };
    const lines = full.split('\n');
    const marked = LEFT_OUT_MARKER.exec(lines[0]);
    let earlierText = marked?.[1] !== undefined;
    let leftOut = marked ? Number(marked[2]) : 0;
    const first = marked ? 1 : 0;
    const budget = this.maxChars - LEFT_OUT_RESERVE;
    let oldestKept = lines.length;
    let used = -1; // n lines take n − 1 line breaks
    while (oldestKept > first && used + lines[oldestKept - 1].length + 1 <= budget) {
      used += lines[oldestKept - 1].length + 1;
      oldestKept--;
    }
    if (oldestKept === lines.length) {
      // Not even the newest line fits: keep it, cut, rather than show nothing new.
      oldestKept--;
    }
    for (let i = first; i < oldestKept; i++) {
      if (lines[i].startsWith(VERBATIM_BULLET)) leftOut++;
      else if (lines[i].trim() !== '') earlierText = true;
    }
    while (oldestKept < lines.length - 1 && lines[oldestKept].trim() === '') oldestKept++;
    const kept = capText(lines.slice(oldestKept).join('\n'), budget);
    return { text: `${leftOutMarker(leftOut, earlierText)}\n${kept.text}`, cut: kept.cut };
  }
}
