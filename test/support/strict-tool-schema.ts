import { estimateTokens } from '@qhorus/blocks-summarisation';

/**
 * The portable dialect every MCP tool input schema must fit, so that agents whose function
 * calling is strict (OpenAI strict mode, Gemini) can load the tools. OpenAI strict mode's rules,
 * as far as they allow optional arguments: every object closed (`additionalProperties: false`)
 * with `properties`; `required` lists only required arguments (strict mode wants every property
 * listed and optional ones typed `[T, "null"]`, a type union the other dialects refuse, so an
 * optional argument is simply left out of `required`); every array has `items`; `type` is one
 * string, never a list; no `anyOf`/`oneOf`/`allOf`, no `$schema`/`$ref`, no free-form object;
 * only the keywords below.
 */
const KEYWORDS: Record<string, ReadonlySet<string>> = {
  object: new Set(['type', 'description', 'properties', 'required', 'additionalProperties']),
  array: new Set(['type', 'description', 'items', 'minItems', 'maxItems']),
  string: new Set(['type', 'description', 'enum', 'pattern']),
  integer: new Set(['type', 'description', 'enum', 'minimum', 'maximum']),
  number: new Set(['type', 'description', 'minimum', 'maximum']),
  boolean: new Set(['type', 'description']),
};

/** Every way `schema` (at `path`) breaks the dialect; empty when it fits. Recursive. */
export function strictSchemaProblems(schema: unknown, path: string): string[] {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [`${path}: not a schema object`];
  const node = schema as Record<string, unknown>;
  const type = node.type;
  if (typeof type !== 'string') return [`${path}: type must be one string, got ${JSON.stringify(type)}`];
  const allowed = KEYWORDS[type];
  if (!allowed) return [`${path}: type ${type} is not portable`];
  const problems = Object.keys(node)
    .filter((key) => !allowed.has(key))
    .map((key) => `${path}: keyword ${key} not allowed on ${type}`);
  if (node.description !== undefined && typeof node.description !== 'string') problems.push(`${path}: description must be a string`);
  if (node.enum !== undefined && (!Array.isArray(node.enum) || node.enum.length === 0 || node.enum.some((v) => v === null))) {
    problems.push(`${path}: enum must be a non-empty list without null`);
  }
  if (type === 'array') {
    if (node.items === undefined) problems.push(`${path}: array without items`);
    else problems.push(...strictSchemaProblems(node.items, `${path}.items`));
  }
  if (type === 'object') {
    if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false, got ${JSON.stringify(node.additionalProperties)}`);
    const properties = node.properties;
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return [...problems, `${path}: object without properties`];
    const names = Object.keys(properties);
    const required = node.required ?? [];
    if (!Array.isArray(required)) problems.push(`${path}: required must be a list`);
    else for (const name of required) if (!names.includes(name)) problems.push(`${path}: required names ${String(name)}, not a property`);
    for (const [name, child] of Object.entries(properties)) problems.push(...strictSchemaProblems(child, `${path}.${name}`));
  }
  return problems;
}

/** Characters per token of the plain rule of thumb the budget is also checked with. */
export const CHARS_PER_TOKEN = 4;

/** What a `tools/list` answer costs an agent's context: its JSON text's size, both ways of counting. */
export function toolListCost(tools: unknown[]): { chars: number; charsDiv4: number; estimateTokens: number } {
  const text = JSON.stringify(tools);
  return { chars: text.length, charsDiv4: Math.ceil(text.length / CHARS_PER_TOKEN), estimateTokens: estimateTokens(text) };
}
