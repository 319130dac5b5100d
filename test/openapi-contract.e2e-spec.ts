import { getMetadataStorage } from 'class-validator';
import { assertConfiguredLimits } from '../apps/channel-service/src/common/configured-limit';
import { apiValidationPipe } from '../apps/channel-service/src/common/validation.pipe';
import { RequestLimitsConfig } from '../apps/channel-service/src/config/slices/request-limits-config';
import { buildCheckedOpenApiDocument } from '../apps/channel-service/src/docs/openapi';
import { routeDtosByOperationId } from '../apps/channel-service/src/docs/route-dtos';
import { boundaryTexts, boundaryValues, DEPENDS_ON, deref, docProblems, fromQueryText, OpenApiDoc, Schema, validSample } from './support/openapi-schema';
import { loadSwaggerPluginMetadata } from './support/swagger-plugin-metadata';
import { startTestApp, TestApp } from './support/test-app';

type Dto = new () => object;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Runs a plain value through what the server runs a request through: the ValidationPipe, then the configured limits. */
async function serverAccepts(config: RequestLimitsConfig, dto: Dto, type: 'body' | 'query', value: unknown): Promise<{ ok: boolean; why: string }> {
  try {
    const validated = await apiValidationPipe().transform(value, { type, metatype: dto, data: undefined });
    assertConfiguredLimits(validated as object, config);
    return { ok: true, why: 'accepted' };
  } catch (err) {
    const response = (err as { getResponse?: () => unknown }).getResponse?.();
    return { ok: false, why: JSON.stringify((response as { message?: unknown })?.message ?? String(err)) };
  }
}

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}…(${text.length})` : text;
};

/** The properties class-validator has rules for, inherited ones included: what the pipe lets through. */
const validatedProperties = (dto: Dto): string[] =>
  [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))].sort();

/**
 * Issue 28 item 1: the document states what the server checks. For every route of the app (whatever
 * feature added it), its body and query DTOs are looked up from the routing metadata; the
 * document's schema for them is compared with (a) the DTOs' class-validator metadata — the same
 * properties, no rule the document cannot state — and (b) the server's validation behaviour:
 * boundary values generated from the document alone (min, max, max+1, 1.5 for an integer, wrong
 * types, null, one past a length, off a pattern, off an enum, an unknown field, a required field
 * left out) must be accepted exactly when the document accepts them.
 */
describe('OpenAPI contract: request schemas match the validation, a class at a time', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let problems: string[];
  let config: RequestLimitsConfig;
  const routes: { id: string; body?: { dto: Dto; schema: Schema }; query?: { dto: Dto; params: Schema[] } }[] = [];

  beforeAll(async () => {
    await loadSwaggerPluginMetadata();
    // A deployment's own limits must reach the document: not the defaults.
    t = await startTestApp('openapi-contract', { inProcessQueue: true, env: { QHORUS_PAGE_LIMIT_MAX: '250', QHORUS_SUMMARY_TEXT_MAX_CHARS: '3000', QHORUS_LONG_POLL_MAX_MS: '20000' } });
    ({ document: doc, problems } = buildCheckedOpenApiDocument(t.app) as unknown as { document: OpenApiDoc; problems: string[] });
    config = t.app.get(RequestLimitsConfig);
    const dtos = routeDtosByOperationId(t.app);
    for (const item of Object.values(doc.paths)) {
      for (const method of HTTP_METHODS.filter((m) => item[m])) {
        const op = item[method];
        const found = dtos.get(op.operationId);
        if (!found) continue;
        routes.push({
          id: op.operationId,
          body: found.body ? { dto: found.body as Dto, schema: op.requestBody?.content?.['application/json']?.schema } : undefined,
          query: found.query ? { dto: found.query as Dto, params: (op.parameters ?? []).filter((p: Schema) => p.in === 'query') } : undefined,
        });
      }
    }
  });
  afterAll(() => t?.close());

  it('finds the routes with a body or query DTO, and every rule of theirs has an OpenAPI statement', () => {
    expect(routes.filter((r) => r.body).length).toBeGreaterThanOrEqual(7);
    expect(routes.filter((r) => r.query).length).toBeGreaterThanOrEqual(7);
    expect(problems).toEqual([]);
  });

  it('lists exactly the validated properties, closes every body, and states the configured bounds', () => {
    const mismatches: string[] = [];
    for (const { id, body, query } of routes) {
      if (body) {
        const schema = deref(doc, body.schema);
        if (!body.schema?.$ref) mismatches.push(`${id}: the body is not a named schema`);
        if (schema.additionalProperties !== false) mismatches.push(`${id}: the body is not closed (additionalProperties: false)`);
        const listed = Object.keys(schema.properties ?? {}).sort();
        if (show(listed) !== show(validatedProperties(body.dto))) mismatches.push(`${id}: body properties ${show(listed)} ≠ validated ${show(validatedProperties(body.dto))}`);
      }
      if (query) {
        const listed = query.params.map((p) => p.name).sort();
        if (show(listed) !== show(validatedProperties(query.dto))) mismatches.push(`${id}: query ${show(listed)} ≠ validated ${show(validatedProperties(query.dto))}`);
      }
    }
    expect(mismatches).toEqual([]);
    const list = routes.find((r) => r.id === 'MessagesController_list')!.query!.params;
    const param = (name: string) => list.find((p) => p.name === name)!.schema;
    expect(param('limit')).toMatchObject({ type: 'integer', minimum: 1, maximum: 250 });
    expect(param('waitMs')).toMatchObject({ type: 'integer', minimum: 0, maximum: 20000 });
    expect(param('type')).toMatchObject({ type: 'array', items: { type: 'string', enum: expect.arrayContaining(['QUERY', 'EVENT']) } });
    expect(deref(doc, routes.find((r) => r.id === 'SummaryController_override')!.body!.schema).properties.text).toMatchObject({ type: 'string', maxLength: 3000 });
  });

  it('states a maximum for every page size (a larger one is refused naming it, never cut to a short page)', () => {
    const unbounded = routes.flatMap(({ id, query }) => (query?.params ?? []).filter((p) => p.name === 'limit' && p.schema?.maximum === undefined).map(() => id));
    expect(unbounded).toEqual([]);
  });

  it('accepts a body field value exactly when the document does (boundaries, wrong types, null, unknown and missing fields)', async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const { id, body } of routes) {
      if (!body) continue;
      const schema = deref(doc, body.schema);
      const base = validSample(doc, schema) as Record<string, unknown>;
      const cases: [string, Record<string, unknown>][] = [['the sample', base], ['an unknown field', { ...base, notAField: 1 }]];
      for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
        for (const value of boundaryValues(doc, property)) cases.push([`${name} = ${show(value)}`, { ...base, [name]: value }]);
        // Whether a field another field decides on may be left out is the other field's business.
        if (!property[DEPENDS_ON]) cases.push([`${name} left out`, { ...base, [name]: undefined }]);
      }
      for (const [what, value] of cases) {
        const plain = JSON.parse(JSON.stringify(value));
        const expected = docProblems(doc, schema, plain);
        const actual = await serverAccepts(config, body.dto, 'body', plain);
        checked++;
        if (actual.ok !== (expected.length === 0)) mismatches.push(`${id} body ${what}: the document ${expected.length ? `refuses it (${expected.join('; ')})` : 'accepts it'}, the server ${actual.why}`);
      }
    }
    expect(checked).toBeGreaterThan(300);
    expect(mismatches).toEqual([]);
  });

  it('accepts a query parameter text exactly when the document does', async () => {
    const mismatches: string[] = [];
    for (const { id, query } of routes) {
      if (!query) continue;
      const cases: [string, Record<string, string>, Record<string, unknown>][] = [['an unknown parameter', { notAParameter: '1' }, { notAParameter: 1 }]];
      for (const p of query.params) {
        for (const text of boundaryTexts(doc, p.schema)) cases.push([`${p.name}=${show(text)}`, { [p.name]: text }, { [p.name]: fromQueryText(doc, p.schema, text) }]);
      }
      const closed = { type: 'object', additionalProperties: false, required: query.params.filter((p) => p.required).map((p) => p.name), properties: Object.fromEntries(query.params.map((p) => [p.name, p.schema])) };
      for (const [what, texts, meaning] of cases) {
        const expected = docProblems(doc, closed, meaning);
        const actual = await serverAccepts(config, query.dto, 'query', texts);
        if (actual.ok !== (expected.length === 0)) mismatches.push(`${id} query ${what}: the document ${expected.length ? `refuses it (${expected.join('; ')})` : 'accepts it'}, the server ${actual.why}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('types every number in the document as an integer unless it says it is fractional, and no string carries items', () => {
    const wrong: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const s = node as Schema;
      if (s.type === 'number' && !['double', 'float'].includes(s.format)) wrong.push(`${at}: number without format double/float`);
      if (s.type !== 'array' && (s.items || s.minItems !== undefined)) wrong.push(`${at}: items/minItems on a ${s.type}`);
      for (const [k, v] of Object.entries(s)) walk(v, `${at}.${k}`);
    };
    walk(doc, '#');
    expect(wrong).toEqual([]);
  });
});
