import { BadRequestException } from '@nestjs/common';

/** Why a string of a request cannot be stored as sent (Postgres refuses a NUL; a lone surrogate becomes U+FFFD in text and is refused by jsonb). */
export const NUL_PROBLEM = 'must not contain NUL (\\u0000) characters';
export const LONE_SURROGATE_PROBLEM = 'must be well-formed Unicode (it has a lone surrogate)';
/** A key such as `toString` or `constructor`: the DTO mapping skips it (it is a member of every object), so it would vanish. */
/** A JSON number beyond a double (`1e400`): JSON.parse makes it Infinity, and a JSON column would store it as null. */
export const NON_FINITE_PROBLEM = 'must be a finite number (it is beyond the range of a double)';
export const RESERVED_KEY_PROBLEM = 'is a member of every JavaScript object, so it cannot be a field or a metadata key (it would be dropped)';

const isObjectMember = (key: string): boolean => Object.hasOwn(Object.prototype, key);

export interface TextProblem {
  /** Dotted path of the value (`messages.1.content`, `metadata.note`); a bad key names its object. */
  field: string;
  problem: string;
}

// String.prototype.isWellFormed (native since Node 20) is newer than the TypeScript lib this project targets.
const isWellFormed = (String.prototype as unknown as { isWellFormed: (this: string) => boolean }).isWellFormed;

function problemOf(text: string): string | null {
  if (text.includes('\u0000')) return NUL_PROBLEM;
  return isWellFormed.call(text) ? null : LONE_SURROGATE_PROBLEM;
}

/** A value to look at, and how it was reached (the path is spelled out only for a problem). */
interface Visit {
  readonly node: unknown;
  readonly parent: Visit | null;
  /** The member's key, or its index in an array. */
  readonly key: string | number;
}

function pathOf(visit: Visit, prefix: string): string {
  const keys: string[] = [];
  for (let v: Visit | null = visit; v !== null && v.parent !== null; v = v.parent) keys.push(String(v.key));
  if (prefix) keys.push(prefix);
  return keys.reverse().join('.');
}

/**
 * The first string (value or key) in `value` that could not be stored as sent: a NUL, or a lone
 * UTF-16 surrogate (Postgres text would silently make it U+FFFD, jsonb refuses it), or a key that
 * names a member of Object.prototype (the DTO mapping drops it without a word); or a number that
 * is not finite (a JSON `1e400`, which would be stored as null). Iterative, so any
 * nesting the depth limit let through is safe; on every request, so it allocates one small record
 * per nested object or array (strings are checked in place, other scalars skipped) and builds no
 * path unless it finds a problem. `prefix` names the root.
 */
export function findBadText(value: unknown, prefix = ''): TextProblem | null {
  const root: Visit = { node: value, parent: null, key: '' };
  if (typeof value === 'string') {
    const problem = problemOf(value);
    return problem ? { field: pathOf(root, prefix), problem } : null;
  }
  // Only objects and arrays are queued; strings are checked where they are met, other scalars skipped.
  const stack: Visit[] = [root];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const node = visit.node as Record<string, unknown> | unknown[];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const bad = checkMember(node[i], visit, i, stack, prefix);
        if (bad) return bad;
      }
      continue;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const keyProblem = problemOf(key);
      if (keyProblem) return { field: pathOf(visit, prefix), problem: `has a key that ${keyProblem}` };
      if (isObjectMember(key)) return { field: pathOf({ node: null, parent: visit, key }, prefix), problem: RESERVED_KEY_PROBLEM };
      const bad = checkMember(node[key], visit, key, stack, prefix);
      if (bad) return bad;
    }
  }
  return null;
}

/** A member's string or number is checked at once, an object or array queued (with how it was reached), anything else skipped. */
function checkMember(child: unknown, parent: Visit, key: string | number, stack: Visit[], prefix: string): TextProblem | null {
  if (typeof child === 'string') {
    const problem = problemOf(child);
    return problem ? { field: pathOf({ node: child, parent, key }, prefix), problem } : null;
  }
  if (typeof child === 'number') return Number.isFinite(child) ? null : { field: pathOf({ node: child, parent, key }, prefix), problem: NON_FINITE_PROBLEM };
  if (child !== null && typeof child === 'object') stack.push({ node: child, parent, key });
  return null;
}

/** The 400 for a TextProblem, in the shape every validation error has. */
export function badTextException({ field, problem }: TextProblem): BadRequestException {
  const name = field || 'body';
  return new BadRequestException({ message: `Invalid request: ${name} ${problem}`, details: [{ field: name, problems: [`${name} ${problem}`] }] });
}
