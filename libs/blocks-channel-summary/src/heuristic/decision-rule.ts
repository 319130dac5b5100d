import { Message, MessageType } from '@qhorus/api';

const DECISION_PREFIXES = ['decision:', 'decided'] as const;
/** Longest prefix checked; only this many characters are lowercased per candidate message. */
const DECISION_PREFIX_LENGTH = Math.max(...DECISION_PREFIXES.map((p) => p.length));
const UPPER_D = 'D'.charCodeAt(0);
const LOWER_D = 'd'.charCodeAt(0);

/**
 * The decision rule. A non-EVENT message records a decision when
 *  1. it is a DONE (work declared complete is a settled outcome), or
 *  2. it is a RESPONSE that closes an open COMMAND (the answer to an instruction), or
 *  3. its content starts with "Decision:" or "Decided" (any case), whatever its type.
 * `closesCommand` says whether the message closed an open COMMAND (rule 2).
 * Cheap on purpose: a first-character test before any string work, no regex.
 */
export function isDecision(m: Message, closesCommand: boolean): boolean {
  if (m.type === MessageType.DONE) return true;
  if (closesCommand && m.type === MessageType.RESPONSE) return true;
  return startsWithDecisionPrefix(m.content);
}

function startsWithDecisionPrefix(content: string): boolean {
  const first = content.charCodeAt(0);
  if (first !== UPPER_D && first !== LOWER_D) return false;
  const head = content.slice(0, DECISION_PREFIX_LENGTH).toLowerCase();
  return DECISION_PREFIXES.some((p) => head.startsWith(p));
}
