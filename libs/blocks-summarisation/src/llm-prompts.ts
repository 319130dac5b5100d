import { LlmSummaryMode } from './llm-summary-mode';

/** Labels of the user prompt; tests and other tiers may rely on them, so they are exported. */
export const PROMPT_PREAMBLE_LABEL = 'Channel purpose:';
export const PROMPT_CURRENT_SUMMARY_LABEL = 'Current summary:';
export const PROMPT_NEW_ITEMS_LABEL = 'New items';
export const PROMPT_ITEM_BULLET = '- ';

const SHARED_RULES =
  'Be concise and factual. Use only what the current summary and the new items say; never invent ' +
  'participants, decisions or outcomes. Keep track of who is involved, what was decided, which ' +
  'requests are still open, handoffs and failures. Reply with plain text only: no preamble, no ' +
  'closing remarks, no code fences.';

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

/**
 * The user turn: the grounding preamble when there is one, the current summary only when there
 * is a non-empty one (a first call has nothing to integrate), then the items, one per line.
 */
export function buildLlmUserPrompt(previousText: string, renderedItems: readonly string[], preamble?: string | null): string {
  const parts: string[] = [];
  const purpose = preamble?.trim();
  if (purpose) parts.push(`${PROMPT_PREAMBLE_LABEL} ${purpose}`);
  if (previousText.trim() !== '') parts.push(`${PROMPT_CURRENT_SUMMARY_LABEL}\n${previousText}`);
  parts.push(`${PROMPT_NEW_ITEMS_LABEL} (${renderedItems.length}):\n${renderedItems.map((line) => PROMPT_ITEM_BULLET + line).join('\n')}`);
  return parts.join('\n\n');
}
