import { boundaryTexts, boundaryValues, DEPENDS_ON, deref, docProblems, fromQueryText, OpenApiDoc, Schema, validSample } from './support/openapi-schema';
import { loadSwaggerPluginMetadata } from './support/swagger-plugin-metadata';
import { ApiClient, waitFor } from './support/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const METHODS_WITH_BODY: ReadonlySet<string> = new Set(['post', 'put', 'patch']);
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

/** What a route answers before its handler decides anything: each status must be one its operation documents. */
describe('OpenAPI: every operation documents the answers of its envelope (401, 405, 413, 415, 429)', () => {
  const BODY_LIMIT = 4096;
  const OVER_BODY_LIMIT = 20_000;
  let t: TestApp;
  let doc: OpenApiDoc;
  let member: ApiClient;
  const operations: { route: string; method: string; path: string; op: Schema }[] = [];

  beforeAll(async () => {
    await loadSwaggerPluginMetadata();
    // Burst 3, refilled at 1/s: an agent's fourth quick request is a 429.
    t = await startTestApp('oa-envelope', {
      inProcessQueue: true,
      env: { QHORUS_BODY_LIMIT_BYTES: String(BODY_LIMIT), QHORUS_BATCH_BODY_LIMIT_BYTES: String(BODY_LIMIT * 2), QHORUS_RATE_LIMIT_BURST: '3', QHORUS_RATE_LIMIT_PER_SECOND: '1' },
    });
    doc = (await t.anonymous.get('/docs-json')).body;
    member = await t.agent('oae-member');
    for (const [route, item] of Object.entries(doc.paths)) {
      for (const method of METHODS.filter((m) => item[m])) {
        operations.push({ route, method, path: route.replace(/\{[^}]+\}/g, 'oae-x'), op: item[method] });
      }
    }
  });
  afterAll(() => t?.close());

  const documented = (op: Schema, status: number) => Object.keys(op.responses).includes(String(status));
  const send = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
    const res = await fetch(t.baseUrl + path, { method: method.toUpperCase(), headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await res.arrayBuffer();
    return res;
  };

  it('no token: 401 where the operation is not public, documented; a public one answers as documented', async () => {
    const wrong: string[] = [];
    for (const { route, method, path, op } of operations) {
      const res = await send(method, path, METHODS_WITH_BODY.has(method) ? { 'content-type': JSON_TYPE } : {}, METHODS_WITH_BODY.has(method) ? '{}' : undefined);
      const expected = op.security?.length ? 401 : undefined;
      if ((expected !== undefined && res.status !== expected) || !documented(op, res.status)) wrong.push(`${method} ${route} → ${res.status} (documents ${Object.keys(op.responses)})`);
    }
    expect(operations.length).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });

  it('a body that is not JSON is 415, one over the body limit 413: both documented on every operation that takes a body', async () => {
    const wrong: string[] = [];
    const auth = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    for (const { route, method, path, op } of operations.filter((o) => METHODS_WITH_BODY.has(o.method))) {
      const text = await send(method, path, { ...auth, 'content-type': 'text/plain', accept: 'application/json, text/event-stream' }, 'hello');
      if (text.status !== 415 || !documented(op, 415)) wrong.push(`${method} ${route} text/plain → ${text.status}`);
      const big = await send(method, path, { ...auth, 'content-type': JSON_TYPE, accept: 'application/json, text/event-stream' }, JSON.stringify({ content: 'x'.repeat(OVER_BODY_LIMIT) }));
      if (big.status !== 413 || !documented(op, 413)) wrong.push(`${method} ${route} ${OVER_BODY_LIMIT} bytes → ${big.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a method a path does not serve: 405 with Allow naming exactly the methods the document says it serves', async () => {
    const wrong: string[] = [];
    for (const [route, item] of Object.entries(doc.paths)) {
      // A documented operation that answers 405 itself (GET and DELETE /mcp) is not a method the path serves.
      const served = METHODS.filter((m) => item[m] && Object.keys(item[m].responses).some((s) => s.startsWith('2')));
      const allow = [...served.map((m) => m.toUpperCase()), ...(served.includes('get') ? ['HEAD'] : [])].sort().join(', ');
      const path = route.replace(/\{[^}]+\}/g, 'oae-x');
      for (const method of METHODS.filter((m) => !served.includes(m))) {
        const res = await send(method, path, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
        if (res.status !== 405 || res.headers.get('allow') !== allow) wrong.push(`${method.toUpperCase()} ${route} → ${res.status} Allow: ${res.headers.get('allow')} (expected 405, ${allow})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('an agent over its rate: 429, documented on every operation that authenticates', async () => {
    const wrong: string[] = [];
    let limited = 0;
    for (const { route, method, path, op } of operations.filter((o) => o.op.security?.length)) {
      const burst = (token: string) => {
        const headers = { authorization: `Bearer ${token}`, ...(METHODS_WITH_BODY.has(method) ? { 'content-type': JSON_TYPE } : {}) };
        return Promise.all(Array.from({ length: 4 }, () => send(method, path, headers, METHODS_WITH_BODY.has(method) ? '{}' : undefined)));
      };
      let answers = await burst(member.token!);
      // The admin's routes refuse an agent (403) before counting its rate: the admin is limited too.
      if (answers.every((res) => res.status === 403)) answers = await burst(TEST_ADMIN_TOKEN);
      for (const res of answers) {
        if (res.status === 429) limited++;
        if (res.status >= 500 || !documented(op, res.status)) wrong.push(`${method} ${route} → ${res.status} (documents ${Object.keys(op.responses)})`);
      }
      if (!answers.some((res) => res.status === 429)) wrong.push(`${method} ${route}: no 429 in 4 quick requests over a burst of 3`);
    }
    expect(limited).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });
});
