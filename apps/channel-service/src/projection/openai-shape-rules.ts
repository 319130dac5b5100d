import { isBlank, isRecord, problem, ShapeProblem } from './shape-problem';

const SYSTEM_ROLES = new Set(['system', 'developer']);
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

/**
 * OpenAI Chat Completions rules: an optional system (or developer) message at index 0 only; the
 * first other message from the user; no blank content (an assistant message that only calls
 * tools may have none, and a tool's output may be empty); every `tool_calls` entry answered by a
 * `tool` message before the next non-tool message, and no `tool` message answering nothing.
 */
export function openAiShapeProblems(value: unknown): ShapeProblem[] {
  if (!Array.isArray(value)) return [problem('', 'not-a-transcript', 'expected an array of messages')];
  if (value.length === 0) return [problem('', 'empty', 'at least one message is required')];
  const problems: ShapeProblem[] = [];
  const firstOther = value.findIndex((m) => !(isRecord(m) && SYSTEM_ROLES.has(m.role as string)));
  if (firstOther === -1 || !isRecord(value[firstOther]) || value[firstOther].role !== 'user') {
    const at = firstOther === -1 ? value.length - 1 : firstOther;
    problems.push(problem(`[${at}].role`, 'first-not-user', 'the first message after the system prompt must come from the user'));
  }
  value.forEach((m, i) => problems.push(...messageProblems(m, i)));
  problems.push(...toolPairingProblems(value));
  return problems;
}

function messageProblems(m: unknown, i: number): ShapeProblem[] {
  const path = `[${i}]`;
  if (!isRecord(m)) return [problem(path, 'not-a-transcript', 'a message must be an object')];
  if (!ROLES.has(m.role as string)) return [problem(`${path}.role`, 'unknown-role', `unknown role ${JSON.stringify(m.role)}`)];
  const problems: ShapeProblem[] = [];
  if (SYSTEM_ROLES.has(m.role as string) && i > 0) {
    problems.push(problem(`${path}.role`, 'system-after-first', `a ${String(m.role)} message is allowed at index 0 only`));
  }
  const callsTools = Array.isArray(m.tool_calls) && m.tool_calls.length > 0;
  const mayBeEmpty = m.role === 'tool' || (m.role === 'assistant' && callsTools);
  if (!mayBeEmpty && !hasText(m.content)) problems.push(problem(`${path}.content`, 'blank-content', 'content is blank'));
  if (callsTools && m.role !== 'assistant') problems.push(problem(`${path}.tool_calls`, 'unknown-role', 'only the assistant can call tools'));
  return problems;
}

/** A string, or content parts each with non-blank text (non-text parts such as images count). */
function hasText(content: unknown): boolean {
  if (typeof content === 'string') return !isBlank(content);
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((p) => isRecord(p) && (p.type !== 'text' || !isBlank(p.text)));
}

function toolPairingProblems(messages: unknown[]): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  /** Calls of the latest assistant message still waiting for their tool message: id → where. */
  let pending = new Map<string, string>();
  const flushUnanswered = () => {
    for (const [id, at] of pending) problems.push(problem(at, 'tool-use-unanswered', `tool call ${id} has no tool message after it`));
    pending = new Map();
  };
  messages.forEach((m, i) => {
    if (!isRecord(m)) return;
    if (m.role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string' || !pending.delete(id)) {
        problems.push(problem(`[${i}]`, 'orphan-tool-result', `tool message ${JSON.stringify(id)} answers no pending tool call`));
      }
      return;
    }
    flushUnanswered();
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) return;
    m.tool_calls.forEach((c: unknown, j: number) => {
      const at = `[${i}].tool_calls[${j}]`;
      if (!isRecord(c) || isBlank(c.id) || !isRecord(c.function) || isBlank(c.function.name)) {
        problems.push(problem(at, 'not-a-transcript', 'a tool call needs an id and a function name'));
      } else {
        pending.set(c.id as string, at);
      }
    });
  });
  flushUnanswered();
  return problems;
}
