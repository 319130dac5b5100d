import { anthropicShapeProblems } from './anthropic-shape-rules';
import { ContextFormat } from './context-format';
import { openAiShapeProblems } from './openai-shape-rules';
import { isBlank, problem, ShapeProblem } from './shape-problem';

export type { ShapeProblem, ShapeRule } from './shape-problem';

/**
 * Checks a transcript in one of the projection formats against the rules providers enforce
 * (no blank content, first message from the user, no system message after index 0, tool calls
 * answered by the results that follow them and no orphan results, …). Pure: never throws,
 * whatever it is given, and returns every problem found (empty when the transcript is valid).
 */
export function validateProjectedMessages(messages: unknown, format: ContextFormat): ShapeProblem[] {
  switch (format) {
    case 'anthropic':
      return anthropicShapeProblems(messages);
    case 'openai':
      return openAiShapeProblems(messages);
    case 'text':
      if (typeof messages !== 'string') return [problem('', 'not-a-transcript', 'the text format is one string')];
      return isBlank(messages) ? [problem('', 'blank-content', 'the text is blank')] : [];
    default:
      return [problem('', 'not-a-transcript', `unknown format ${JSON.stringify(format)}`)];
  }
}

/** Checks a whole projection: its `messages` for `anthropic`/`openai`, its `text` for `text`. */
export function validateProjection(projection: { format: ContextFormat; messages?: unknown; text?: unknown }): ShapeProblem[] {
  return validateProjectedMessages(projection.format === 'text' ? projection.text : projection.messages, projection.format);
}
