import { Message, MessageType } from '@qhorus/api';

/** Content prefixes that mark a decision, lower case (matched ignoring ASCII case). */
export const DECISION_PREFIXES: readonly string[] = Object.freeze(['decision:', 'decided']);

const LOWER_A = 'a'.charCodeAt(0);
const LOWER_Z = 'z'.charCodeAt(0);
/** Distance between an ASCII lower-case letter and its upper-case form. */
const ASCII_CASE_OFFSET = LOWER_A - 'A'.charCodeAt(0);

/**
 * The decision rule. A non-EVENT message records a decision when
 *  1. it is a DONE (work declared complete is a settled outcome), or
 *  2. it is a RESPONSE in an open COMMAND's thread (the answer to an instruction), or
 *  3. its content starts with "Decision:" or "Decided" (any case), whatever its type.
 * `answersCommand` says whether the message is a RESPONSE in an open COMMAND's thread (rule 2).
 * Hot path: char-code comparisons only, no regex, no allocation.
 */
export function isDecision(m: Message, answersCommand: boolean): boolean {
  if (m.type === MessageType.DONE) return true;
  if (answersCommand && m.type === MessageType.RESPONSE) return true;
  for (const prefix of DECISION_PREFIXES) if (startsWithIgnoringCase(m.content, prefix)) return true;
  return false;
}

function startsWithIgnoringCase(text: string, lowerPrefix: string): boolean {
  if (text.length < lowerPrefix.length) return false;
  for (let i = 0; i < lowerPrefix.length; i++) {
    const want = lowerPrefix.charCodeAt(i);
    const got = text.charCodeAt(i);
    if (got === want) continue;
    if (want >= LOWER_A && want <= LOWER_Z && got === want - ASCII_CASE_OFFSET) continue;
    return false;
  }
  return true;
}
