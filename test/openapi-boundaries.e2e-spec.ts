import { boundaryTexts, boundaryValues, DEPENDS_ON, deref, docProblems, fromQueryText, OpenApiDoc, Schema, validSample } from './support/openapi-schema';
import { loadSwaggerPluginMetadata } from './support/swagger-plugin-metadata';
import { ApiClient, waitFor } from './support/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const JSON_TYPE = 'application/json';
/** Per request: an answer later than this is a hang. */
const REQUEST_TIMEOUT_MS = 15_000;
/** The long-poll ceiling of the app under test: its documented maximum is then a short wait. */
const LONG_POLL_MAX_MS = 300;
/**
 * Operations whose refusals are not all HTTP 400s: JSON-RPC answers a method-level error (an
 * unknown method, bad params) with 200 and the error in the body, so only "documented, never 5xx" holds.
 */
const JSON_RPC_OPERATIONS = new Set(['McpController_handle']);
/**
 * A 400 that says a value is too large or too long. For a request the document accepts, that is
 * a bound the document does not state (the service checks it, the document should say it).
 */
const SIZE_BOUND = /at most|greater than|shorter than|longer than|too (long|large|big)|maximum/i;

interface Case {
  op: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  what: string;
  /** Why the document refuses this request ([]: it accepts it). */
  refusedBy: string[];
  /** The field this case varies states that other fields decide on it too (x-depends-on): a 400 may come from them. */
  dependent?: boolean;
}

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 50 ? `${text.slice(0, 47)}…(${text.length})` : text;
};

/** Every case the document implies, from the document alone: boundaries of each body field, query and header parameter. */
function casesOf(doc: OpenApiDoc, pathValues: Record<string, string>): Case[] {
  const cases: Case[] = [];
  for (const [route, item] of Object.entries(doc.paths)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method];
      const params: Schema[] = (op.parameters ?? []).map((p: Schema) => deref(doc, p));
      const path = route.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathValues[name] ?? pathValues.name));
      const media = op.requestBody?.content?.[JSON_TYPE];
      const bodySchema = media ? deref(doc, media.schema) : undefined;
      const base = bodySchema ? ((media.example !== undefined && docProblems(doc, bodySchema, media.example).length === 0 ? media.example : validSample(doc, bodySchema)) as Record<string, unknown>) : undefined;
      const requiredHeaders = Object.fromEntries(params.filter((p) => p.in === 'header' && p.required).map((p) => [p.name, String(validSample(doc, p.schema))]));
      const headers = { ...(base ? { 'content-type': JSON_TYPE } : {}), ...requiredHeaders };
      const querySchema = { type: 'object', additionalProperties: false, properties: Object.fromEntries(params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema])) };
      const push = (what: string, c: Partial<Case> & { refusedBy: string[] }) =>
        cases.push({ op: op.operationId, method: method.toUpperCase(), path, headers, body: base === undefined ? undefined : JSON.stringify(base), what, ...c });

      push('as documented', { refusedBy: base ? docProblems(doc, bodySchema, base) : [] });
      if (base && bodySchema) {
        push('an unknown body field', { body: JSON.stringify({ ...base, notAField: 1 }), refusedBy: docProblems(doc, bodySchema, { ...base, notAField: 1 }) });
        for (const [name, property] of Object.entries<Schema>(bodySchema.properties ?? {})) {
          for (const value of boundaryValues(doc, property)) {
            const body = { ...base, [name]: value };
            push(`body.${name} = ${show(value)}`, { body: JSON.stringify(body), refusedBy: docProblems(doc, bodySchema, body), dependent: property[DEPENDS_ON] !== undefined });
          }
          if (!property[DEPENDS_ON] && (bodySchema.required ?? []).includes(name)) {
            const body = { ...base, [name]: undefined };
            push(`body.${name} left out`, { body: JSON.stringify(body), refusedBy: docProblems(doc, bodySchema, JSON.parse(JSON.stringify(body))) });
          }
        }
      }
      // Refused where the operation documents its query (a route that documents none is only held to "documented, never 5xx").
      push('an unknown query parameter', { path: `${path}?notAParameter=1`, refusedBy: Object.keys(querySchema.properties).length > 0 ? ['not a parameter'] : [] });
      for (const p of params.filter((x) => x.in === 'query')) {
        for (const text of boundaryTexts(doc, p.schema)) {
          push(`query ${p.name}=${show(text)}`, {
            path: `${path}?${encodeURIComponent(p.name)}=${encodeURIComponent(text)}`,
            refusedBy: docProblems(doc, querySchema, { [p.name]: fromQueryText(doc, p.schema, text) }),
            dependent: p.schema?.[DEPENDS_ON] !== undefined,
          });
        }
      }
      for (const p of params.filter((x) => x.in === 'header' && !x.required && x.schema?.maxLength !== undefined)) {
        for (const text of boundaryTexts(doc, p.schema).filter((v) => /^[\x21-\x7e]*$/.test(v))) {
          push(`header ${p.name}: ${show(text)}`, { headers: { ...headers, [p.name]: text }, refusedBy: docProblems(doc, p.schema, text) });
        }
      }
    }
  }
  return cases;
}

async function send(baseUrl: string, c: Case, token: string): Promise<{ status: number; contentType: string; body: unknown }> {
  const res = await fetch(baseUrl + c.path, {
    method: c.method,
    headers: { ...c.headers, authorization: `Bearer ${token}` },
    body: c.method === 'GET' || c.method === 'DELETE' ? undefined : c.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const contentType = res.headers.get('content-type') ?? '';
  if (contentType.startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, contentType, body: null };
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, contentType, body };
}

/**
 * Issue 28 item 1: from the document alone (`/docs-json`), every operation is sent boundary values
 * of every body field, query and header parameter (min, max, max+1, 1.5 for an integer, wrong
 * types, null, one past a length, off a pattern, an unknown field, a required field left out),
 * and the answer must be what the document says: a status it documents for the operation, never a
 * 5xx, a 400 for every request the document refuses, and a success answer shaped as documented.
 */
describe('OpenAPI boundaries: every operation answers what its document says', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let member: ApiClient;

  beforeAll(async () => {
    await loadSwaggerPluginMetadata();
    t = await startTestApp('oa-bounds', {
      inProcessQueue: true,
      env: { QHORUS_RATE_LIMIT_BURST: '10000000', QHORUS_RATE_LIMIT_PER_SECOND: '10000000', QHORUS_LONG_POLL_MAX_MS: String(LONG_POLL_MAX_MS) },
    });
    member = await t.agent('oab-member');
    expect((await member.post('/api/v1/channels', { name: 'oab-open' })).status).toBe(201);
    await member.post('/api/v1/channels/oab-open/messages', { type: 'QUERY', content: 'status?', correlationId: 'oab-thread' });
    await member.post('/api/v1/channels/oab-open/messages', { type: 'DONE', correlationId: 'oab-thread' });
    await waitFor(async () => (await member.get('/api/v1/channels/oab-open/threads/oab-thread/summary')).status === 200, 'the thread summary');
    doc = (await t.anonymous.get('/docs-json')).body;
  });
  afterAll(() => t?.close());

  it('answers every boundary case with a documented status: 400 where the document refuses, never 5xx, success shaped as documented', async () => {
    const cases = casesOf(doc, { name: 'oab-open', correlationId: 'oab-thread' });
    expect(new Set(cases.map((c) => c.op)).size).toBeGreaterThan(20);
    expect(cases.filter((c) => c.refusedBy.length > 0).length).toBeGreaterThan(300);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    for (const c of cases) {
      const what = `${c.method} ${c.path.split('?')[0]} (${c.op}) ${c.what}`;
      let answer;
      try {
        answer = await send(t.baseUrl, c, TEST_ADMIN_TOKEN);
      } catch (err) {
        failures.push(`${what} → no answer (${(err as Error).name})`);
        continue;
      }
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      const op = doc.paths[Object.keys(doc.paths).find((p) => doc.paths[p][c.method.toLowerCase()]?.operationId === c.op)!][c.method.toLowerCase()];
      const documented = Object.keys(op.responses).map(Number);
      const detail = `${answer.status} ${show(answer.body)}`;
      if (answer.status >= 500) failures.push(`${what} → ${detail}`);
      else if (!documented.includes(answer.status)) failures.push(`${what} → ${detail}: not a documented status (${documented.join(', ')})`);
      else if (c.refusedBy.length > 0 && answer.status !== 400 && !JSON_RPC_OPERATIONS.has(c.op)) failures.push(`${what} → ${detail}, but the document refuses it (${c.refusedBy.join('; ')})`);
      else if (c.refusedBy.length === 0 && !c.dependent && answer.status === 400 && SIZE_BOUND.test(JSON.stringify(answer.body))) failures.push(`${what} → ${detail}: a bound the document does not state`);
      else if (answer.status < 300 && answer.contentType.startsWith(JSON_TYPE)) {
        const schema = op.responses[String(answer.status)]?.content?.[JSON_TYPE]?.schema;
        const shape = schema ? docProblems(doc, schema, answer.body) : [];
        if (shape.length > 0) failures.push(`${what} → ${answer.status}, not shaped as documented: ${shape.slice(0, 3).join('; ')}`);
      }
    }
    console.log(`openapi boundaries: ${cases.length} cases, statuses ${JSON.stringify(statuses)}`);
    expect(failures).toEqual([]);
  });
});
