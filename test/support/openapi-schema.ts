/**
 * What an OpenAPI 3.0 document says about a value, read from the document alone (the subset of
 * JSON Schema the service's document uses): whether it accepts a value, a value it accepts, and
 * boundary values around what it states (min, max, max+1, 1.5 for an integer, wrong types, a
 * string one past its length or off its pattern, …). The contract tests compare the server's
 * answers to these, so the document is checked against behaviour, not against the code that wrote it.
 */
export type Schema = Record<string, any>;
export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

/** Which fields a property's rules depend on (docs/validation-schema.ts DEPENDS_ON). */
export const DEPENDS_ON = 'x-depends-on';

export function deref(doc: OpenApiDoc, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!] ?? {};
  // A nullable reference (OpenAPI 3.0 ignores a $ref's siblings): `allOf: [$ref]` beside `nullable`.
  if (s.allOf?.length === 1 && s.type === undefined) return { ...deref(doc, s.allOf[0]), nullable: s.nullable === true };
  return s;
}

const typeOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
/** Characters, as JSON Schema (and class-validator's isLength) count them. */
const lengthOf = (s: string): number => [...s].length;

/** Why the document refuses `value` ([] when it accepts it). */
export function docProblems(doc: OpenApiDoc, raw: Schema | undefined, value: unknown, at = '$'): string[] {
  const s = deref(doc, raw);
  if (value === null) return s.nullable ? [] : [`${at}: null but not nullable`];
  const t = typeOf(value);
  if (s.oneOf) return s.oneOf.some((o: Schema) => docProblems(doc, o, value, at).length === 0) ? [] : [`${at}: matches none of oneOf`];
  if (s.type && !(s.type === t || (s.type === 'number' && t === 'integer'))) return [`${at}: ${t}, not ${s.type}`];
  const problems: string[] = [];
  if (s.enum && !s.enum.includes(value)) problems.push(`${at}: not one of the enum`);
  if (s.not?.enum?.includes(value)) problems.push(`${at}: one of the excluded values`);
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) problems.push(`${at}: below minimum`);
    if (s.maximum !== undefined && value > s.maximum) problems.push(`${at}: above maximum`);
  }
  if (typeof value === 'string') {
    if (s.minLength !== undefined && lengthOf(value) < s.minLength) problems.push(`${at}: shorter than minLength`);
    if (s.maxLength !== undefined && lengthOf(value) > s.maxLength) problems.push(`${at}: longer than maxLength`);
    if (s.pattern !== undefined && !new RegExp(s.pattern).test(value)) problems.push(`${at}: off the pattern`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) problems.push(`${at}: fewer than minItems`);
    if (s.maxItems !== undefined && value.length > s.maxItems) problems.push(`${at}: more than maxItems`);
    value.forEach((item, i) => problems.push(...docProblems(doc, s.items, item, `${at}[${i}]`)));
  }
  if (t === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of s.required ?? []) if (object[name] === undefined) problems.push(`${at}.${name}: required`);
    for (const [name, v] of Object.entries(object)) {
      if (v === undefined) continue;
      const property = s.properties?.[name];
      if (property) problems.push(...docProblems(doc, property, v, `${at}.${name}`));
      else if (s.additionalProperties === false) problems.push(`${at}.${name}: not a property (closed object)`);
    }
  }
  return problems;
}

export const docAccepts = (doc: OpenApiDoc, schema: Schema | undefined, value: unknown): boolean => docProblems(doc, schema, value).length === 0;

/**
 * Probes for a number or string whose schema states no maximum: the document accepts them, so a
 * server that refuses them as too large has a bound the document does not state. (Long enough to
 * pass any hidden length limit the service had, short enough for a URL and the default body limit.)
 */
export const UNBOUNDED_PROBE_NUMBER = Number.MAX_SAFE_INTEGER;
export const UNBOUNDED_PROBE_LENGTH = 5_000;

const PATTERN_SAMPLES = ['a', 'sample-1', 'x1', 'A', '0', 'a b', ' ', '', '-x', '!', 'x'.repeat(65)];

/** A string of `length` characters the pattern accepts, when one of the simple fillers does. */
function stringOf(pattern: string | undefined, length: number): string {
  for (const fill of ['a', 'x', '0', 'A', 'b1']) {
    const s = fill.repeat(Math.ceil(length / fill.length)).slice(0, length);
    if (pattern === undefined || new RegExp(pattern).test(s)) return s;
  }
  return 'a'.repeat(length);
}

/** A value the schema accepts (its example when it accepts it, else built from what it states). */
export function validSample(doc: OpenApiDoc, raw: Schema | undefined, depth = 0): unknown {
  const s = deref(doc, raw);
  if (s.example !== undefined && docAccepts(doc, s, s.example)) return s.example;
  if (s.enum?.length) return s.enum[0];
  if (s.oneOf?.length) return validSample(doc, s.oneOf[0], depth);
  switch (s.type) {
    case 'integer':
    case 'number':
      return s.minimum ?? Math.min(1, s.maximum ?? 1);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validSample(doc, s.items, depth + 1));
    case 'object': {
      if (!s.properties || depth > 4) return {};
      return Object.fromEntries(Object.entries<Schema>(s.properties).map(([k, p]) => [k, validSample(doc, p, depth + 1)]));
    }
    default: {
      const found = PATTERN_SAMPLES.find((v) => docAccepts(doc, { ...s, nullable: false }, v));
      return found ?? stringOf(s.pattern, Math.max(1, s.minLength ?? 1));
    }
  }
}

/** Boundary and wrong-type values for a schema, as JSON values (a body field). */
export function boundaryValues(doc: OpenApiDoc, raw: Schema | undefined): unknown[] {
  const s = deref(doc, raw);
  const values: unknown[] = [null, validSample(doc, s)];
  switch (s.type) {
    case 'integer':
    case 'number':
      values.push('1', true, 1.5, 1.0);
      if (s.minimum !== undefined) values.push(s.minimum, s.minimum - 1);
      if (s.maximum !== undefined) values.push(s.maximum, s.maximum + 1);
      // No maximum stated: the document accepts any size, so the server must too (an unstated bound shows here).
      else values.push(UNBOUNDED_PROBE_NUMBER);
      break;
    case 'boolean':
      values.push('true', 1);
      break;
    case 'array':
      values.push('x', 1, [], [validSample(doc, s.items)], [null]);
      if (s.maxItems !== undefined && s.maxItems <= 1000) values.push(Array.from({ length: s.maxItems + 1 }, () => validSample(doc, s.items)));
      for (const item of boundaryValues(doc, s.items).slice(2, 6)) values.push([item]);
      break;
    case 'object':
      values.push([], 'x', 1);
      // An empty object leaves out fields whose need depends on others: the document cannot say.
      if (!Object.values<Schema>(s.properties ?? {}).some((p) => p[DEPENDS_ON])) values.push({});
      break;
    default:
      values.push(1, true, [], {}, '', ' ', 'NOT_ONE_OF_THEM', ...PATTERN_SAMPLES);
      if (s.minLength !== undefined && s.minLength > 0) values.push(stringOf(s.pattern, s.minLength), stringOf(s.pattern, s.minLength - 1));
      if (s.maxLength !== undefined) values.push(stringOf(s.pattern, s.maxLength), stringOf(s.pattern, s.maxLength + 1));
      else if (!s.enum) values.push(stringOf(s.pattern, UNBOUNDED_PROBE_LENGTH));
      if (s.not?.enum) values.push(...s.not.enum);
  }
  return values;
}

/** Boundary values for a query parameter, as the text sent on the wire (arrays as comma lists). */
export function boundaryTexts(doc: OpenApiDoc, raw: Schema | undefined): string[] {
  const s = deref(doc, raw);
  const texts = new Set<string>(['', 'abc']);
  const toText = (v: unknown) => (Array.isArray(v) ? v.map(String).join(',') : String(v));
  for (const v of boundaryValues(doc, s)) if (v !== null && typeof v !== 'object') texts.add(String(v));
  if (s.type === 'integer' || s.type === 'number') ['1.0', '1.5', '-1', '1e3', ' 1'].forEach((t) => texts.add(t));
  if (s.type === 'boolean') ['true', 'false', 'yes', '1'].forEach((t) => texts.add(t));
  if (s.type === 'array') {
    texts.add(toText([validSample(doc, s.items)]));
    if (deref(doc, s.items).enum) texts.add(toText(deref(doc, s.items).enum.slice(0, 2)));
  }
  return [...texts];
}

/** What a query text means to the document: the value it parses to, or undefined when it is not one of the type. */
export function fromQueryText(doc: OpenApiDoc, raw: Schema | undefined, text: string): unknown {
  const s = deref(doc, raw);
  switch (s.type) {
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'array':
      return text.split(',');
    default:
      return text;
  }
}
