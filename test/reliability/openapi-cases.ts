/**
 * Fuzz cases derived from an OpenAPI 3 document alone: for every operation, every body property,
 * every query (and header) parameter and every path parameter gets hostile values chosen by its
 * declared type (null, wrong types, empty, huge, nested, extreme numbers), one field at a time,
 * on top of a body that is otherwise valid per the schema. Nothing here names a route: routes
 * added later are fuzzed too.
 */

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, any>>; components?: { schemas?: Record<string, Schema> } };

export interface OpenApiCase {
  method: string;
  /** The operation's templated path (for the report). */
  route: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What was mutated, e.g. `body.summaryThreshold = 1e308`. */
  what: string;
}

export interface CaseOptions {
  /** A value for each path parameter name (e.g. an existing channel), the rest get `pathDefault`. */
  pathValues: Record<string, string>;
  pathDefault: string;
  /** Strings this long are "huge" (over every declared limit, under the body limit). */
  hugeLength: number;
  /** Nesting of the "nested" value (over the JSON depth limit). */
  deepNesting: number;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Raw JSON texts, so values JSON.stringify cannot produce (1e400, 2^63 exactly) reach the server. */
const EXTREME_NUMBERS = ['1e308', '-1e308', '1e400', '9223372036854775808', '9007199254740993', '-1', '0', '1.5', '-0'];

function deref(doc: Doc, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let i = 0; s.$ref && i < 10; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!] ?? {};
  if (s.allOf?.length === 1) return deref(doc, s.allOf[0]);
  return s;
}

/** A value the schema accepts as far as the schema says (its example, an enum value, its bounds). */
function sample(doc: Doc, raw: Schema | undefined, depth = 0): unknown {
  const s = deref(doc, raw);
  if (s.example !== undefined) return s.example;
  if (s.enum?.length) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      if (!s.properties || depth > 3) return {};
      return Object.fromEntries((s.required ?? []).map((k: string) => [k, sample(doc, s.properties[k], depth + 1)]));
    case 'string':
    default:
      return s.pattern ? 'oaf-sample' : 'oaf sample';
  }
}

/** Hostile JSON texts for a property, by its declared type. */
function hostileJson(doc: Doc, raw: Schema, o: CaseOptions): string[] {
  const s = deref(doc, raw);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const nested = '{"a":'.repeat(o.deepNesting) + '1' + '}'.repeat(o.deepNesting);
  const common = ['null', '{}', '[]', nested, '[null]'];
  const huge = JSON.stringify('x'.repeat(o.hugeLength));
  switch (type) {
    case 'integer':
    case 'number':
      return [...common, '"1"', 'true', '""', ...EXTREME_NUMBERS];
    case 'boolean':
      return [...common, '"true"', '1', '0'];
    case 'array':
      return [...common.filter((v) => v !== '[]'), '"x"', '1', JSON.stringify(Array.from({ length: 2_000 }, () => 'x')), `[${huge}]`, '[[[[[]]]]]'];
    case 'object':
      return ['null', '[]', '"x"', '1', nested, JSON.stringify({ ['k'.repeat(o.hugeLength)]: 1 }), `{"a":${huge}}`];
    default:
      return [...common, '1', 'true', '""', '" "', huge, '"\\u0000"', '"\\ud800"', '"😀"'];
  }
}

/** Hostile query/header/path texts (already strings on the wire). */
function hostileText(o: CaseOptions, forPath: boolean): string[] {
  const values = ['', 'null', 'abc', '-1', '0', '1.5', '1e400', '99999999999999999999', '[]', '{}', 'x'.repeat(forPath ? 300 : o.hugeLength / 16), 'true'];
  return forPath ? [...values.filter((v) => v !== ''), '..', '%00', '%E2%82', '%2F'] : [...values, '\u0000', '%'];
}

const encodeQuery = (v: string) => (v === '%' ? '%' : encodeURIComponent(v));
/** Header values must be visible ASCII: drop what fetch would refuse to send. */
const sendableHeader = (v: string) => /^[\x20-\x7e]*$/.test(v);

export function casesFrom(doc: Doc, o: CaseOptions): OpenApiCase[] {
  const cases: OpenApiCase[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method];
      const params: Schema[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(doc, p));
      const pathParams = params.filter((p) => p.in === 'path');
      const query = params.filter((p) => p.in === 'query');
      const headerParams = params.filter((p) => p.in === 'header');
      const fill = (overrides: Record<string, string> = {}, raw = false) =>
        route.replace(/\{([^}]+)\}/g, (_, name) => (name in overrides ? (raw ? overrides[name] : encodeURIComponent(overrides[name])) : encodeURIComponent(o.pathValues[name] ?? o.pathDefault)));
      const bodySchema = deref(doc, op.requestBody?.content?.['application/json']?.schema);
      const baseBody = op.requestBody ? (sample(doc, bodySchema) as Record<string, unknown>) : undefined;
      const bodyText = baseBody === undefined ? undefined : JSON.stringify(baseBody);
      const headers = (extra: Record<string, string> = {}) => ({ ...(bodyText !== undefined ? { 'content-type': 'application/json' } : {}), ...extra });
      const push = (what: string, c: Partial<OpenApiCase>) =>
        cases.push({ method: method.toUpperCase(), route, path: fill(), headers: headers(), body: bodyText, what, ...c });

      push('as documented', {});
      for (const p of pathParams) {
        for (const v of hostileText(o, true)) push(`path ${p.name} = ${JSON.stringify(v.slice(0, 40))}`, { path: fill({ [p.name]: v }, v.startsWith('%') || v === '..') });
      }
      for (const p of query) {
        for (const v of hostileText(o, false)) {
          const path = `${fill()}?${encodeURIComponent(p.name)}=${encodeQuery(v)}`;
          push(`query ${p.name} = ${JSON.stringify(v.slice(0, 40))}`, { path });
        }
        push(`query ${p.name} repeated`, { path: `${fill()}?${p.name}=1&${p.name}=2` });
      }
      for (const p of headerParams) {
        for (const v of hostileText(o, false).filter(sendableHeader)) push(`header ${p.name} = ${JSON.stringify(v.slice(0, 40))}`, { headers: headers({ [p.name]: v }) });
      }
      if (baseBody && typeof baseBody === 'object' && bodySchema.properties) {
        for (const [prop, propSchema] of Object.entries<Schema>(bodySchema.properties)) {
          for (const value of hostileJson(doc, propSchema, o)) {
            const others = JSON.stringify({ ...baseBody, [prop]: undefined }).slice(1, -1);
            const body = `{${others}${others ? ',' : ''}${JSON.stringify(prop)}:${value}}`;
            push(`body.${prop} = ${value.slice(0, 40)}`, { body });
          }
        }
        for (const required of bodySchema.required ?? []) push(`body.${required} missing`, { body: JSON.stringify({ ...baseBody, [required]: undefined }) });
      }
    }
  }
  return cases;
}
