import { THREAD_OPENING_TYPES } from '@qhorus/api';
import { STATE_EXCERPT_CAP } from './state-limits';
import { CLOSURE_OUTCOMES } from './state-records';

/**
 * The canonical text of one entry of each list key, as sticky RegExps (see line-list.ts): exactly
 * what JSON.stringify writes for a record the tracker would keep as it is, keys in the record's
 * order. An entry that matches parses (JSON.parse) to the very record the tolerant reader
 * (read-channel-state.ts) would build from it, so it can be copied as text; one that does not
 * (another writer's key order, a missing or mistyped field, a text longer than the excerpt cap) is
 * not wrong, only slow: its whole key is decoded by JSON.parse.
 */

/** One JSON string: any character but `"`, `\` and controls, or an escape (RFC 8259 §7). */
const CHAR = String.raw`(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})`;
const STRING = `"${CHAR}*"`;
const NULLABLE_STRING = `(?:null|${STRING})`;
/**
 * A text the excerpting keeps as it is: at most STATE_EXCERPT_CAP UTF-16 units once decoded (each
 * CHAR decodes to exactly one unit, so the count bounds the decoded length).
 */
const EXCERPT = `"${CHAR}{0,${STATE_EXCERPT_CAP}}"`;
/**
 * A seq as JSON.stringify writes a safe integer: no `-0`, no exponent, and few enough digits to be
 * below Number.MAX_SAFE_INTEGER whatever they are (one digit fewer than it has).
 */
const SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER).length - 1;
const SEQ = String.raw`(?:0|-?[1-9]\d{0,${SAFE_DIGITS - 1}})`;
const NULLABLE_SEQ = `(?:null|${SEQ})`;

const oneOf = (names: Iterable<string>) => `"(?:${[...names].join('|')})"`;

/** Builds the sticky matcher of an object with these keys, in this order, each value matching its pattern. */
function entry(fields: ReadonlyArray<readonly [key: string, value: string]>): RegExp {
  return new RegExp(`\\{${fields.map(([key, value]) => `"${key}":${value}`).join(',')}\\}`, 'y');
}

/** A `recentClosures` entry (ClosureView). */
export const CLOSURE_ENTRY = entry([
  ['outcome', oneOf(CLOSURE_OUTCOMES)],
  ['correlationId', NULLABLE_STRING],
  ['requestType', `(?:null|${oneOf(THREAD_OPENING_TYPES)})`],
  ['requester', NULLABLE_STRING],
  ['requestSeq', NULLABLE_SEQ],
  ['by', STRING],
  ['target', NULLABLE_STRING],
  ['topic', STRING],
  ['seq', SEQ],
  ['at', STRING],
  ['text', EXCERPT],
]);

/** A `decisions` entry (DecisionView). */
export const DECISION_ENTRY = entry([
  ['seq', SEQ],
  ['sender', STRING],
  ['topic', STRING],
  ['at', STRING],
  ['text', EXCERPT],
]);

/** A `latestStatus` entry (StatusView). */
export const STATUS_ENTRY = entry([
  ['agent', STRING],
  ['seq', SEQ],
  ['topic', STRING],
  ['at', STRING],
  ['text', EXCERPT],
]);

/** What a `latestStatus` entry starts with, up to its agent's JSON string. */
export const STATUS_HEAD = '{"agent":';
/** What follows the agent's JSON string (a string cannot contain it unescaped), up to the seq. */
export const STATUS_SEQ_KEY = ',"seq":';
