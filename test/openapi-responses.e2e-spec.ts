import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ensureServiceBuilt } from './support/process-harness';
import { loadSwaggerPluginMetadata } from './support/swagger-plugin-metadata';
import { startTestApp, TestApp } from './support/test-app';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
/** A `nest build` when the build is stale, then the built app's document, on a loaded machine. */
const BUILD_AND_DOCUMENT_TIMEOUT_MS = 300_000;

/**
 * Every place under a schema (properties, items, maps, refs) that says nothing a client could
 * type: a missing schema, or `{type: 'object'}` with neither properties nor a value schema. A
 * property with no type at all is JSON of any shape (`unknown` in TypeScript), which is honest.
 */
function barePlaces(schema: any, path: string, components: Record<string, any>, seen = new Set<string>()): string[] {
  if (!schema) return [path];
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop();
    if (seen.has(name)) return [];
    seen.add(name);
    return components[name] ? barePlaces(components[name], `${path}→${name}`, components, seen) : [`${path}: dangling ${schema.$ref}`];
  }
  const nested = [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  if (nested.length > 0) return nested.flatMap((s: any, i: number) => barePlaces(s, `${path}.of${i}`, components, seen));
  if (schema.type === 'array') return barePlaces(schema.items, `${path}[]`, components, seen);
  if (schema.type !== 'object') return [];
  if (!schema.properties && !schema.additionalProperties) return [path];
  const props = Object.entries<any>(schema.properties ?? {}).flatMap(([k, s]) => barePlaces(s, `${path}.${k}`, components, seen));
  const values = typeof schema.additionalProperties === 'object' ? barePlaces(schema.additionalProperties, `${path}{}`, components, seen) : [];
  return [...props, ...values];
}

describe('OpenAPI: every route answers with a schema a client can type', () => {
  let t: TestApp;
  let doc: any;

  beforeAll(async () => {
    await loadSwaggerPluginMetadata();
    t = await startTestApp('openapi-responses', { inProcessQueue: true });
    doc = (await t.anonymous.get('/docs-json')).body;
  });
  afterAll(() => t?.close());

  it('gives each operation at least one success (or, for /mcp GET and DELETE, their 405) answer with content, or a 204 (no content by definition)', () => {
    const without: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of HTTP_METHODS.filter((m) => item[m])) {
        const answers = Object.entries<any>(item[method].responses).filter(([status]) => !(Number(status) >= 400 && Number(status) !== 405));
        if (!answers.some(([status, r]) => r.content || status === '204')) without.push(`${method} ${path}`);
      }
    }
    expect(without).toEqual([]);
  });

  it('documents no answer a route never gives: GET and DELETE /mcp answer 405 only, and no response is the scanner\'s empty default', async () => {
    const empty: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of HTTP_METHODS.filter((m) => item[m])) {
        for (const [status, response] of Object.entries<any>(item[method].responses)) {
          if (!response.description && !response.content) empty.push(`${method} ${path} ${status}`);
        }
      }
    }
    expect(empty).toEqual([]);
    for (const method of ['get', 'delete']) {
      const documented = Object.keys(doc.paths['/mcp'][method].responses);
      expect({ method, success: documented.filter((s) => s.startsWith('2')) }).toEqual({ method, success: [] });
      const answer = await t.admin.request(method.toUpperCase(), '/mcp');
      expect(documented).toContain(String(answer.status));
      expect(answer.status).toBe(405);
    }
  });

  it('is the document the built service serves (what the contract tests check is what clients get)', async () => {
    await ensureServiceBuilt();
    const script = "require('./scripts/generate-client').documentFromBuild().then((d) => process.stdout.write(JSON.stringify(d)))";
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { cwd: resolve(__dirname, '..'), maxBuffer: 64 * 1024 * 1024 });
    expect(JSON.parse(stdout)).toEqual(doc);
  }, BUILD_AND_DOCUMENT_TIMEOUT_MS);

  it('has no bare {type: "object"} anywhere in a response, at the top or nested', () => {
    const bare: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of HTTP_METHODS.filter((m) => item[m])) {
        for (const [status, response] of Object.entries<any>(item[method].responses)) {
          for (const [type, media] of Object.entries<any>(response.content ?? {})) {
            bare.push(...barePlaces(media.schema, `${method} ${path} ${status} ${type}`, doc.components.schemas));
          }
        }
      }
    }
    expect(bare).toEqual([]);
  });

  it('describes the projection without unions: messages an array of provider messages, text a string', () => {
    const ctx = doc.components.schemas.ContextResponse;
    expect(ctx.properties.messages).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/ProjectedMessage' } });
    expect(ctx.properties.text).toMatchObject({ type: 'string' });
    expect(JSON.stringify(ctx)).not.toMatch(/oneOf|anyOf/);
    expect(doc.components.schemas.ProjectedMessage.properties.content).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/ProjectedTextBlock' } });
  });

});
