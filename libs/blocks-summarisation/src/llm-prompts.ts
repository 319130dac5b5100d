import { GroundingSection } from './content-summariser';
import { LlmSummaryMode } from './llm-summary-mode';

/** Labels of the user prompt; tests and other tiers may rely on them, so they are exported. */
export const PROMPT_PREAMBLE_LABEL = 'Channel purpose:';
export const PROMPT_CURRENT_SUMMARY_LABEL = 'Current summary:';
export const PROMPT_NEW_ITEMS_LABEL = 'New items';
export const PROMPT_ITEM_BULLET = '- ';
export const PROMPT_GROUNDING_LABEL = 'Current state (tracked from every message; authoritative):';
export const PROMPT_LENGTH_LABEL = 'Length limit:';

const SHARED_RULES =
  'Be concise and factual. Use only what the current summary and the new items say; never invent ' +
  'participants, decisions or outcomes. Keep track of who is involved, what was decided, which ' +
  'requests are still open, handoffs and failures. When a current state is given it is ' +
  'authoritative: name as open exactly the requests it lists as open, and never contradict its ' +
  'decisions or participants. Stay within the length limit. Reply with plain text only: no ' +
  'preamble, no closing remarks, no code fences.';

/** One system prompt per mode: EDIT may rewrite everything, APPEND only adds a section. */
export const LLM_SYSTEM_PROMPTS: Readonly<Record<LlmSummaryMode, string>> = Object.freeze({
  [LlmSummaryMode.EDIT]:
    'You maintain the running summary of a channel in a multi-agent system. You are given the ' +
    'current summary (if there is one) and the items posted since. Rewrite the summary so that it ' +
    'integrates the new items: keep what still matters, update what changed, drop what is resolved ' +
    'or no longer relevant, and keep it to a few short paragraphs. Reply with the complete new ' +
    'summary. ' +
    SHARED_RULES,
  [LlmSummaryMode.APPEND]:
    'You maintain the running summary of a channel in a multi-agent system. You are given the ' +
    'current summary (if there is one) and the items posted since. The current summary is kept ' +
    'unchanged: do not repeat, rewrite or correct it. Write only a short update section covering ' +
    'the new items (what happened, decisions, requests opened or answered, changes to earlier ' +
    'state); it will be appended after the current summary. ' +
    SHARED_RULES,
});

/** What a call adds to the prompt beyond the items: the state to agree with and the length limit. */
export interface LlmPromptContext {
  readonly grounding?: readonly GroundingSection[] | null;
  /** The most characters the answer may have (the whole summary in EDIT, the section in APPEND). */
  readonly maxAnswerChars?: number;
}

/**
 * The user turn: the grounding preamble when there is one, the current summary only when there
 * is a non-empty one (a first call has nothing to integrate), the current state, then the items,
 * one per line, and the length limit.
 */
export function buildLlmUserPrompt(
  previousText: string,
  renderedItems: readonly string[],
  preamble?: string | null,
  context: LlmPromptContext = {},
): string {
  const parts: string[] = [];
  const purpose = preamble?.trim();
  if (purpose) parts.push(`${PROMPT_PREAMBLE_LABEL} ${purpose}`);
  if (previousText.trim() !== '') parts.push(`${PROMPT_CURRENT_SUMMARY_LABEL}\n${previousText}`);
  const grounding = context.grounding ?? [];
  if (grounding.length > 0) parts.push([PROMPT_GROUNDING_LABEL, ...grounding.map(groundingBlock)].join('\n'));
  parts.push(`${PROMPT_NEW_ITEMS_LABEL} (${renderedItems.length}):\n${renderedItems.map((line) => PROMPT_ITEM_BULLET + line).join('\n')}`);
  if (context.maxAnswerChars !== undefined) parts.push(`${PROMPT_LENGTH_LABEL} at most ${context.maxAnswerChars} characters.`);
  return parts.join('\n\n');
}

function groundingBlock(section: GroundingSection): string {
  const lines = section.lines.length === 0 ? ['none'] : section.lines;
  return [`${section.title}:`, ...lines.map((line) => PROMPT_ITEM_BULLET + line)].join('\n');
}
