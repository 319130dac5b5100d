import { Message } from '@qhorus/api';
import { assembleTranscript, TranscriptUnit } from './assemble-transcript';
import { planFold, waterFillCap } from './budget-plan';
import { ContextFormat } from './context-format';
import { Digester, digestMarker, fitDigest } from './digest';
import { renderForViewer, RenderedMessage } from './message-rendering';
import { ProjectedMessage } from './projected-messages';
import { renderSummaryBlock, StoredSummary } from './summary-block';
import { fitText, unitCost } from './token-cost';

export interface ProjectionInput {
  summary: StoredSummary;
  /** Non-EVENT messages after the watermark, ascending (the newest ones when not all were read). */
  tail: readonly Message[];
  /** False when older messages after the watermark were not read: the digest then names them. */
  tailComplete: boolean;
  viewer: string;
  /** How many of the newest messages are never folded (fewer when the tail is shorter). */
  keepLast: number;
  /** The caller checked it can hold keepLast (see `requiredMaxTokens`). */
  maxTokens: number;
  format: ContextFormat;
}

export interface Projection {
  format: ContextFormat;
  summaryVersion: number;
  coversThroughSeq: number;
  /** The oldest messages after the watermark condensed into a digest, if any. */
  digest: { fromSeq: number; toSeq: number; messages: number } | null;
  /** Seq of the first message shown verbatim (null when none is). */
  verbatimFromSeq: number | null;
  /** Kept messages cut to fit maxTokens (each ends with a marker saying how to read it whole). */
  truncatedSeqs: number[];
  projectedTokens: number;
  /** `anthropic` and `openai`: the provider's message array (absent for `text`). */
  messages?: ProjectedMessage[];
  /** `text`: the rendered transcript (absent otherwise). */
  text?: string;
}

export const truncationMarker = (seq: number) => ` … [cut to fit maxTokens; check_messages after_seq=${seq - 1} limit=1 returns it whole]`;

/**
 * The context projection of DESIGN §5, as a pure function of the stored summary and the tail:
 * the summary block first (byte-identical until the summary version changes), then the digest
 * of the oldest messages when the budget requires it, then the rest verbatim, the viewer's own
 * as `assistant` and everyone else's as `user`. Always within maxTokens: fold the oldest first;
 * only when the newest `keepLast` alone do not fit are the largest of them cut, with a marker.
 */
export async function projectContext(input: ProjectionInput, digester: Digester): Promise<Projection> {
  const { summary, tail, format, maxTokens } = input;
  const summaryText = renderSummaryBlock(summary, maxTokens);
  const rendered = tail.map((m) => renderForViewer(m, input.viewer, format === 'text'));
  const costs = rendered.map((r) => unitCost(r.text));
  const rest = maxTokens - unitCost(summaryText);
  const keep = Math.min(input.keepLast, tail.length);
  // An empty tail cannot hide older messages, whatever the caller says.
  const plan = planFold(costs, rest, keep, !input.tailComplete && tail.length > 0);

  let digestUnit: TranscriptUnit | null = null;
  let digest: Projection['digest'] = null;
  let shown: RenderedMessage[] = rendered;
  let shownCosts = costs;
  if (plan) {
    const folded = tail.slice(0, plan.foldCount);
    const fromSeq = plan.foldCount > 0 && input.tailComplete ? folded[0].seq : summary.coversThroughSeq + 1;
    const toSeq = folded.length > 0 ? folded[folded.length - 1].seq : tail[0].seq - 1;
    digestUnit = { role: 'user', text: fitDigest(digestMarker(fromSeq, toSeq), await digester(folded), plan.digestBudget) };
    digest = { fromSeq, toSeq, messages: folded.length };
    shown = rendered.slice(plan.foldCount);
    shownCosts = costs.slice(plan.foldCount);
  }

  const cap = waterFillCap(shownCosts, rest - (digestUnit ? unitCost(digestUnit.text) : 0));
  const truncatedSeqs: number[] = [];
  const messageUnits = shown.map((r, i): TranscriptUnit => {
    if (shownCosts[i] <= cap) return { role: r.role, text: r.text };
    truncatedSeqs.push(r.seq);
    return { role: r.role, text: fitText('', r.text, truncationMarker(r.seq), cap) };
  });

  const units: TranscriptUnit[] = [{ role: 'user', text: summaryText }, ...(digestUnit ? [digestUnit] : []), ...messageUnits];
  return {
    format,
    summaryVersion: summary.version,
    coversThroughSeq: summary.coversThroughSeq,
    digest,
    verbatimFromSeq: shown[0]?.seq ?? null,
    truncatedSeqs,
    projectedTokens: units.reduce((sum, u) => sum + unitCost(u.text), 0),
    ...assembleTranscript(units, format),
  };
}
