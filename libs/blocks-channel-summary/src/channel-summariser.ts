import { EMPTY_SUMMARY, Message, SummaryResult, summaryResult, SummaryUpdateContext, SummaryUpdateHook } from '@qhorus/api';
import {
  ANNOTATION_ITEM_COUNT,
  ANNOTATION_TEXT_TRUNCATED,
  capText,
  ContentSummariser,
  DEFAULT_SUMMARY_TEXT_MAX_CHARS,
  GroundingSection,
  TEXT_TRUNCATED,
  validateTextMaxChars,
  overlayAnnotations,
  withoutAnnotations,
  withTruncationFlag,
} from '@qhorus/blocks-summarisation';
import { DEGRADED_KEYS, DEGRADED_TRUE, degradedReason } from './degraded-summary';
import { HEURISTIC_KEYS, HEURISTIC_TIER } from './heuristic/heuristic-annotation-keys';
import { HeuristicMessageSummariser } from './heuristic/heuristic-message-summariser';
import { renderHeuristicReport } from './heuristic/heuristic-report';
import { ChannelStateTracker, TrackedState } from './state/channel-state-tracker';
import { groundingFromState } from './state/state-grounding';
import { STATE_KEY_NAMES } from './state/state-keys';
import { assertValidSummary } from './summary-result-validation';

/**
 * What a strategy may declare to own state keys itself (DESIGN §3): the composition then keeps
 * the strategy's value for each key named here instead of the tracker's. Names that are not state
 * keys are ignored. See docs/custom-summarisers.md.
 */
export interface StateKeyOwner {
  readonly ownedStateKeys?: readonly string[];
}

export interface ChannelSummariserOptions {
  /** The strategy's name, for error messages (`lastError`). */
  readonly name?: string;
  /** The text cap. Default DEFAULT_SUMMARY_TEXT_MAX_CHARS. */
  readonly textMaxChars?: number;
  readonly tracker?: ChannelStateTracker;
}

const DEFAULT_STRATEGY_LABEL = 'channel summariser';
const DEGRADED_OWN_KEYS = [DEGRADED_KEYS.degraded, DEGRADED_KEYS.reason];

/**
 * The channel's summariser composition, the summary slot's hook: whatever strategy writes the
 * text (a built-in or a domain team's), the state tracker runs over every batch, and the result
 * is the strategy's text and keys with the tracker's state keys on top (DESIGN §3).
 *
 * Per batch: the tracker folds the previous annotations over the batch; the strategy gets the
 * batch unchanged (the same summariser as the pipeline path), the previous result with its text
 * within the cap, and the state as grounding (the LLM tier puts it in its prompt); its result is
 * validated (blank text or non-string annotation → InvalidSummaryError, nothing merged), its text
 * cut to the cap at a line boundary if longer (`textTruncated=true`), then the state merged.
 */
export class ChannelSummariser implements SummaryUpdateHook {
  private readonly name: string;
  private readonly textMaxChars: number;
  private readonly tracker: ChannelStateTracker;
  /** The state keys the tracker writes: all but those the strategy owns. */
  private readonly trackedKeys: readonly string[];

  constructor(
    private readonly delegate: ContentSummariser<Message>,
    options: ChannelSummariserOptions = {},
  ) {
    this.name = options.name ?? DEFAULT_STRATEGY_LABEL;
    this.textMaxChars = validateTextMaxChars(options.textMaxChars ?? DEFAULT_SUMMARY_TEXT_MAX_CHARS);
    this.tracker = options.tracker ?? new ChannelStateTracker();
    const owned = new Set((delegate as StateKeyOwner).ownedStateKeys ?? []);
    this.trackedKeys = STATE_KEY_NAMES.filter((key) => !owned.has(key));
  }

  /** Whether the tracker writes `key` for this strategy (one that owns a state key writes it itself). */
  tracks(key: string): boolean {
    return this.trackedKeys.includes(key);
  }

  async update(ctx: SummaryUpdateContext): Promise<SummaryResult> {
    // Nothing new: keep the slot as it is and spend nothing (an LLM tier would cost a call).
    if (ctx.messages.length === 0) return ctx.previous ?? EMPTY_SUMMARY;
    const tracked = this.tracker.track(ctx.previous?.annotations, ctx.messages);
    let grounding: GroundingSection[] | undefined;
    const result = await this.delegate.summarise(ctx.messages, this.handedPrevious(ctx.previous, tracked, ctx.channel.description), {
      preamble: ctx.channel.description,
      signal: ctx.signal,
      modelCalls: ctx.modelCalls,
      maxChars: this.textMaxChars,
      // Rendered only if a tier reads it (the LLM tier): the heuristic and verbatim tiers never pay for it.
      get grounding() {
        return (grounding ??= groundingFromState(tracked.snapshot));
      },
    });
    assertValidSummary(result, this.name);
    const { text, cut } = capText(result.text, this.textMaxChars);
    // The strategy saw no flag (see handedPrevious), so one in its result is its own cut.
    const flagged = cut || result.annotations?.[ANNOTATION_TEXT_TRUNCATED] === TEXT_TRUNCATED;
    // The strategy wrote this text: an earlier degraded version's marks no longer describe it.
    const own = withoutAnnotations(result.annotations ?? {}, DEGRADED_OWN_KEYS);
    const merged = summaryResult(text, withTruncationFlag(this.withState(own, tracked), flagged));
    this.tracker.remember(merged.annotations, tracked);
    return merged;
  }

  /**
   * The slot after a batch the strategy could not summarise (a plain `llm` channel's model failed,
   * has no key or spent its budget; DESIGN §3): the tracker's state over the batch, the heuristic
   * report of it as the text, `tier=grouped`, `degraded=true` and `degradedReason`. No model call,
   * so the state is never stale because a model is down; the next successful run rewrites the text
   * from this report and drops the marks.
   */
  degrade(ctx: SummaryUpdateContext, reason: string): SummaryResult {
    if (ctx.messages.length === 0) return ctx.previous ?? EMPTY_SUMMARY;
    const tracked = this.tracker.track(ctx.previous?.annotations, ctx.messages);
    const own = {
      [HEURISTIC_KEYS.tier]: HEURISTIC_TIER,
      [ANNOTATION_ITEM_COUNT]: String(ctx.messages.length),
      [DEGRADED_KEYS.degraded]: DEGRADED_TRUE,
      [DEGRADED_KEYS.reason]: degradedReason(reason),
    };
    const text = renderHeuristicReport(tracked.snapshot, ctx.channel.description, this.textMaxChars);
    // The report is bounded by construction: no cut flag.
    const result = summaryResult(text, withTruncationFlag(this.withState(overlayAnnotations(ctx.previous, own), tracked), false));
    this.tracker.remember(result.annotations, tracked);
    return result;
  }

  /**
   * The state after `messages` without running the strategy (no model call): for a manual
   * override, which replaces the text but must still account for every message it covers.
   */
  account(previous: SummaryResult | null, messages: readonly Message[]): SummaryResult {
    const annotations = previous?.annotations ?? {};
    if (messages.length === 0) return summaryResult(previous?.text ?? '', annotations);
    return summaryResult(previous?.text ?? '', this.withState(annotations, this.tracker.track(annotations, messages)));
  }

  /**
   * The previous result as the strategy sees it: text within the cap, no stale cut flag. A
   * heuristic report is a snapshot of the state, true only when written: a strategy that builds
   * on the previous text (verbatim lists under it, the LLM edits it) after a switch away from the
   * heuristic, or a tier change, gets the report of the state as it is after this batch instead,
   * so its text cannot repeat an answered request as open. The heuristic itself reads no text.
   */
  private handedPrevious(previous: SummaryResult | null, tracked: TrackedState, description: string | null | undefined): SummaryResult | null {
    if (previous === null) return null;
    const hasFlag = ANNOTATION_TEXT_TRUNCATED in previous.annotations;
    const annotations = hasFlag ? withoutAnnotations(previous.annotations, [ANNOTATION_TEXT_TRUNCATED]) : previous.annotations;
    if (previous.annotations[HEURISTIC_KEYS.tier] === HEURISTIC_TIER && !(this.delegate instanceof HeuristicMessageSummariser)) {
      return summaryResult(renderHeuristicReport(tracked.snapshot, description, this.textMaxChars), annotations);
    }
    if (previous.text.length <= this.textMaxChars && !hasFlag) return previous;
    return summaryResult(capText(previous.text, this.textMaxChars).text, annotations);
  }

  private withState(annotations: Readonly<Record<string, string>>, tracked: TrackedState): Record<string, string> {
    const merged: Record<string, string> = { ...annotations };
    for (const key of this.trackedKeys) {
      const value = tracked.keys[key];
      // periodStart/periodEnd are absent while no message with a date was seen.
      if (value === undefined) delete merged[key];
      else merged[key] = value;
    }
    return merged;
  }
}
