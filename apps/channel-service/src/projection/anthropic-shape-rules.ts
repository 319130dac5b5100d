import { isBlank, isRecord, problem, ShapeProblem } from './shape-problem';

/**
 * Anthropic Messages API rules: `system` is a top-level field, never a message; messages
 * alternate user/assistant starting with user; no blank text; every `tool_use` is answered by a
 * `tool_result` in the very next (user) message, results come first in that message, and no
 * result answers a call that was not made just before; the final assistant text has no trailing
 * whitespace (the API rejects it as a prefill).
 */
export function anthropicShapeProblems(value: unknown): ShapeProblem[] {
  const transcript = Array.isArray(value) ? { messages: value } : value;
  if (!isRecord(transcript) || !Array.isArray(transcript.messages)) {
    return [problem('', 'not-a-transcript', 'expected {system?, messages: [...]} or an array of messages')];
  }
  const problems: ShapeProblem[] = [];
  if (transcript.system !== undefined) problems.push(...systemProblems(transcript.system));
  const messages: unknown[] = transcript.messages;
  if (messages.length === 0) return [...problems, problem('messages', 'empty', 'at least one message is required')];
  messages.forEach((m, i) => problems.push(...messageProblems(m, i, messages)));
  problems.push(...trailingWhitespaceProblems(messages));
  return problems;
}

function systemProblems(system: unknown): ShapeProblem[] {
  if (typeof system === 'string') return isBlank(system) ? [problem('system', 'blank-content', 'system is blank')] : [];
  if (Array.isArray(system) && system.length > 0 && system.every((b) => isRecord(b) && !isBlank(b.text))) return [];
  return [problem('system', 'blank-content', 'system must be non-blank text (or non-blank text blocks)')];
}

function messageProblems(m: unknown, i: number, messages: unknown[]): ShapeProblem[] {
  const path = `messages[${i}]`;
  if (!isRecord(m)) return [problem(path, 'not-a-transcript', 'a message must be an object')];
  const problems: ShapeProblem[] = [];
  if (m.role === 'system') {
    problems.push(problem(`${path}.role`, 'system-after-first', 'Anthropic takes the system prompt in the top-level `system` field, never as a message'));
  } else if (m.role !== 'user' && m.role !== 'assistant') {
    problems.push(problem(`${path}.role`, 'unknown-role', `role must be user or assistant, not ${JSON.stringify(m.role)}`));
  }
  if (i === 0 && m.role !== 'user') problems.push(problem(`${path}.role`, 'first-not-user', 'the first message must come from the user'));
  const previous = i > 0 && isRecord(messages[i - 1]) ? (messages[i - 1] as Record<string, unknown>) : null;
  if (previous && previous.role === m.role) {
    problems.push(problem(`${path}.role`, 'alternation', `two ${String(m.role)} messages in a row: merge them`));
  }
  problems.push(...contentProblems(m, path));
  problems.push(...toolUseProblems(m, path, messages[i + 1]));
  problems.push(...toolResultProblems(m, path, previous));
  return problems;
}

function contentProblems(m: Record<string, unknown>, path: string): ShapeProblem[] {
  const content = m.content;
  if (typeof content === 'string') return isBlank(content) ? [problem(`${path}.content`, 'blank-content', 'content is blank')] : [];
  if (!Array.isArray(content) || content.length === 0) {
    return [problem(`${path}.content`, 'blank-content', 'content must be non-blank text or a non-empty list of blocks')];
  }
  const problems: ShapeProblem[] = [];
  content.forEach((b, j) => {
    const at = `${path}.content[${j}]`;
    if (!isRecord(b) || typeof b.type !== 'string') problems.push(problem(at, 'not-a-transcript', 'a content block must be an object with a type'));
    else if (b.type === 'text' && isBlank(b.text)) problems.push(problem(at, 'blank-content', 'text block is blank'));
    else if (b.type === 'tool_use' && (isBlank(b.id) || isBlank(b.name))) problems.push(problem(at, 'not-a-transcript', 'tool_use needs an id and a name'));
    else if (b.type === 'tool_result' && isBlank(b.tool_use_id)) problems.push(problem(at, 'not-a-transcript', 'tool_result needs a tool_use_id'));
  });
  return problems;
}

const blocksOf = (m: unknown): Record<string, unknown>[] =>
  isRecord(m) && Array.isArray(m.content) ? (m.content.filter(isRecord) as Record<string, unknown>[]) : [];

/** Every tool_use must be answered by a tool_result in the very next message, which is the user's. */
function toolUseProblems(m: Record<string, unknown>, path: string, next: unknown): ShapeProblem[] {
  const uses = blocksOf(m)
    .map((b, j) => ({ b, j }))
    .filter(({ b }) => b.type === 'tool_use');
  if (uses.length === 0) return [];
  if (m.role !== 'assistant') return uses.map(({ j }) => problem(`${path}.content[${j}]`, 'unknown-role', 'only the assistant can use tools'));
  const answered = new Set(
    isRecord(next) && next.role === 'user' ? blocksOf(next).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [],
  );
  return uses
    .filter(({ b }) => !answered.has(b.id))
    .map(({ b, j }) => problem(`${path}.content[${j}]`, 'tool-use-unanswered', `tool_use ${String(b.id)} has no tool_result in the next message`));
}

/** Results answer the calls of the message just before, once each, and come before any text. */
function toolResultProblems(m: Record<string, unknown>, path: string, previous: Record<string, unknown> | null): ShapeProblem[] {
  const blocks = blocksOf(m);
  const calls = new Set(previous && previous.role === 'assistant' ? blocksOf(previous).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
  const problems: ShapeProblem[] = [];
  const seen = new Set<unknown>();
  let sawOther = false;
  blocks.forEach((b, j) => {
    if (b.type !== 'tool_result') {
      sawOther = true;
      return;
    }
    const at = `${path}.content[${j}]`;
    if (m.role !== 'user') problems.push(problem(at, 'unknown-role', 'tool results belong in a user message'));
    if (!calls.has(b.tool_use_id) || seen.has(b.tool_use_id)) {
      problems.push(problem(at, 'orphan-tool-result', `tool_result ${String(b.tool_use_id)} answers no tool_use of the previous message`));
    }
    if (sawOther) problems.push(problem(at, 'tool-result-not-first', 'tool_result blocks must come before any other content'));
    seen.add(b.tool_use_id);
  });
  return problems;
}

function trailingWhitespaceProblems(messages: unknown[]): ShapeProblem[] {
  const i = messages.length - 1;
  const last = messages[i];
  if (!isRecord(last) || last.role !== 'assistant') return [];
  const texts = typeof last.content === 'string' ? [last.content] : blocksOf(last).filter((b) => b.type === 'text').map((b) => b.text);
  const final = texts[texts.length - 1];
  if (typeof final === 'string' && final.length > 0 && /\s$/.test(final)) {
    return [problem(`messages[${i}].content`, 'trailing-whitespace', 'the final assistant text must not end with whitespace')];
  }
  return [];
}
