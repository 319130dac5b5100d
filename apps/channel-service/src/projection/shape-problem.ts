/** The rules a projected (or any) transcript must obey before it is sent to a provider. */
export type ShapeRule =
  | 'not-a-transcript'
  | 'empty'
  | 'blank-content'
  | 'unknown-role'
  | 'first-not-user'
  | 'system-after-first'
  | 'alternation'
  | 'tool-use-unanswered'
  | 'orphan-tool-result'
  | 'tool-result-not-first'
  | 'trailing-whitespace';

/** One broken rule: where (a JSON-ish path into the value checked), which rule, and why. */
export interface ShapeProblem {
  path: string;
  rule: ShapeRule;
  message: string;
}

export const problem = (path: string, rule: ShapeRule, message: string): ShapeProblem => ({ path, rule, message });

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const isBlank = (v: unknown): boolean => typeof v !== 'string' || v.trim().length === 0;
