import { Message, SummaryResult } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { DASHBOARD_ROOT } from '../apps/channel-service/src/dashboard/dashboard';
import { OPERATION_EXAMPLES } from '../apps/channel-service/src/docs/examples';
import { hashToken } from '../apps/channel-service/src/auth/tokens';
import { OPERATION_ERRORS } from '../apps/channel-service/src/docs/error-responses';
import { getSummary, postMany, waitForSummary } from './support/channel-helpers';
import { ApiClient, waitFor } from './support/http';
import { logLines } from './support/log-lines';
import { parsePrometheusText, sampleValue } from './support/prometheus-text';
import { loadSwaggerPluginMetadata } from './support/swagger-plugin-metadata';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
/** Nothing listens here: a Redis URL that refuses every connection. */
const UNREACHABLE_REDIS_URL = 'redis://127.0.0.1:1';

/** A summariser that always fails, to see failed jobs counted. */
class FailingSummariser implements ContentSummariser<Message> {
  async summarise(): Promise<SummaryResult> {
    throw new Error('the model is down');
  }
}

/** Structural checks of an OpenAPI 3 document: what a validator would reject. */
function openApiProblems(doc: any): string[] {
  const problems: string[] = [];
  if (!/^3\.\d+\.\d+$/.test(doc.openapi ?? '')) problems.push(`openapi is '${doc.openapi}'`);
  if (typeof doc.info?.title !== 'string' || typeof doc.info?.version !== 'string') problems.push('info.title/version missing');
  if (!doc.paths || typeof doc.paths !== 'object') problems.push('no paths');
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    if (!path.startsWith('/')) problems.push(`path '${path}' does not start with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const method of HTTP_METHODS.filter((m) => item[m])) {
      const op = item[method];
      const where = `${method.toUpperCase()} ${path}`;
      if (!op.operationId) problems.push(`${where}: no operationId`);
      else if (ids.has(op.operationId)) problems.push(`${where}: duplicate operationId ${op.operationId}`);
      ids.add(op.operationId);
      const responses = Object.entries<any>(op.responses ?? {});
      if (responses.length === 0) problems.push(`${where}: no responses`);
      for (const [status, r] of responses) if (typeof r.description !== 'string') problems.push(`${where} ${status}: no description`);
      const pathParams = [...(item.parameters ?? []), ...(op.parameters ?? [])].filter((p: any) => p.in === 'path');
      for (const name of templated) {
        const p = pathParams.find((x: any) => x.name === name);
        if (!p || p.required !== true) problems.push(`${where}: path parameter '${name}' not declared as required`);
      }
      for (const requirement of op.security ?? doc.security ?? []) {
        for (const scheme of Object.keys(requirement)) if (!doc.components?.securitySchemes?.[scheme]) problems.push(`${where}: unknown security scheme ${scheme}`);
      }
    }
  }
  const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
  for (const ref of new Set(refs.map((r) => r.slice(8, -1)))) {
    const target = ref.replace(/^#\//, '').split('/').reduce((o: any, k) => o?.[k], doc);
    if (!ref.startsWith('#/') || target === undefined) problems.push(`unresolved $ref ${ref}`);
  }
  return problems;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Fastify's `/channels/:name` is OpenAPI's `/channels/{name}`. */
const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('operations: OpenAPI, metrics, health and logs', () => {
  let t: TestApp;
  let alice: ApiClient;
  const registeredRoutes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    await loadSwaggerPluginMetadata();
    t = await startTestApp('ops', {
      summarisers: { failing: new FailingSummariser() },
      env: { QHORUS_JOB_ATTEMPTS: '1' },
      beforeListen: (app) =>
        app
          .getHttpAdapter()
          .getInstance()
          .addHook('onRoute', (route: { method: string | string[]; url: string }) => {
            for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
          }),
    });
    alice = await t.agent('alice');
  });
  afterAll(() => t?.close());

  describe('OpenAPI', () => {
    let doc: any;
    beforeAll(async () => {
      const res = await t.anonymous.get('/docs-json');
      expect(res.status).toBe(200);
      doc = res.body;
    });

    it('is a valid OpenAPI 3 document', () => {
      expect(openApiProblems(doc)).toEqual([]);
      expect(doc.info.title).toBe('Qhorus');
    });

    it('documents every route the app registers (except the docs and the dashboard files themselves)', () => {
      const dashboardFiles = new Set(['/', ...filesUnder(DASHBOARD_ROOT).map((f) => '/' + relative(DASHBOARD_ROOT, f))]);
      const served = registeredRoutes.filter((r) => !['HEAD', 'OPTIONS'].includes(r.method));
      // The dashboard is really served, and the API has its routes: the list is not empty by accident.
      expect(served.filter((r) => dashboardFiles.has(r.url)).map((r) => r.url)).toEqual(expect.arrayContaining(['/', '/index.html', '/app.js']));
      const api = served.filter((r) => !r.url.startsWith('/docs') && !dashboardFiles.has(r.url));
      expect(api.length).toBeGreaterThanOrEqual(15);
      const undocumented = api
        .map((r) => `${r.method} ${toOpenApiPath(r.url)}`)
        .filter((key) => {
          const [method, path] = key.split(' ');
          return !doc.paths[path]?.[method.toLowerCase()];
        });
      expect(undocumented).toEqual([]);
      for (const path of ['/health', '/health/live', '/metrics', '/api/v1/channels/{name}/messages', '/api/v1/channels/{name}/summary']) {
        expect(Object.keys(doc.paths)).toContain(path);
      }
    });

    it('declares bearer auth, required everywhere except /health', () => {
      expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const method of HTTP_METHODS.filter((m) => item[m])) {
          const expected = path.startsWith('/health') ? [] : [{ bearer: [] }];
          expect({ route: `${method} ${path}`, security: item[method].security }).toEqual({ route: `${method} ${path}`, security: expected });
        }
      }
    });

    it('documents the error shape {statusCode, error, message, details} on the error answers', () => {
      const schema = doc.components.schemas.ApiError;
      expect(Object.keys(schema.properties).sort()).toEqual(['details', 'error', 'message', 'statusCode']);
      const errorRef = { $ref: '#/components/schemas/ApiError' };
      const post = doc.paths['/api/v1/channels/{name}/messages'].post;
      for (const status of ['400', '401', '403', '404', '413', '429', '503']) {
        expect({ status, schema: post.responses[status]?.content?.['application/json']?.schema }).toEqual({ status, schema: errorRef });
      }
      expect(doc.paths['/api/v1/channels'].post.responses['409'].content['application/json'].schema).toEqual(errorRef);
      expect(doc.paths['/api/v1/agents'].post.responses['403'].description).toMatch(/admin/);
      // Every authenticated operation says what a missing token gets.
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        for (const method of HTTP_METHODS.filter((m) => item[m] && !path.startsWith('/health'))) {
          expect({ route: `${method} ${path}`, has401: Boolean(item[method].responses['401']) }).toEqual({ route: `${method} ${path}`, has401: true });
        }
      }
    });

    it('describes the DTOs (the CLI plugin metadata), with examples', () => {
      const post = doc.paths['/api/v1/channels/{name}/messages'].post;
      const ref = post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      const dto = doc.components.schemas[ref];
      expect(Object.keys(dto.properties)).toEqual(expect.arrayContaining(['type', 'content', 'topic', 'correlationId', 'inReplyTo', 'target', 'metadata']));
      expect(dto.properties.type.enum).toEqual(expect.arrayContaining(['QUERY', 'HANDOFF', 'DONE']));
      expect(dto.properties.content.description).toMatch(/Required except for DONE/);
      expect(post.requestBody.content['application/json'].example).toMatchObject({ type: 'QUERY' });
      const list = doc.paths['/api/v1/channels/{name}/messages'].get;
      expect(list.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['path:name', 'query:afterSeq', 'query:limit', 'query:includeEvents']));
      expect(doc.paths['/api/v1/channels/{name}/summary'].get.responses['200'].content['application/json'].example).toHaveProperty('annotations');
    });

    it('names the bodies of the agent lifecycle routes (revoke, rotate, list) for generated clients', () => {
      const schemaOf = (op: any, status: string) => doc.components.schemas[op.responses[status].content['application/json'].schema.$ref.split('/').pop()];
      const revoke = doc.paths['/api/v1/agents/{name}'].delete;
      const rotate = doc.paths['/api/v1/agents/{name}/token'].post;
      expect(Object.keys(schemaOf(revoke, '200').properties).sort()).toEqual(['erased', 'name', 'revokedAt']);
      expect(Object.keys(schemaOf(rotate, '201').properties).sort()).toEqual(['name', 'rotatedAt', 'token']);
      for (const op of [revoke, rotate]) {
        expect(op.responses['403'].description).toMatch(/admin/);
        expect(op.responses['404']).toBeDefined();
      }
      const list = doc.paths['/api/v1/agents'].get.responses['200'].content['application/json'].schema;
      expect(list.type).toBe('array');
      expect(Object.keys(doc.components.schemas[list.items.$ref.split('/').pop()].properties).sort()).toEqual(['createdAt', 'lastSeenAt', 'name']);
    });

    it('keeps its hand-written tables in step with the routes (no entry for an operation that does not exist)', () => {
      const ids = new Set(Object.values<any>(doc.paths).flatMap((item) => HTTP_METHODS.filter((m) => item[m]).map((m) => item[m].operationId)));
      expect(Object.keys(OPERATION_EXAMPLES).filter((id) => !ids.has(id))).toEqual([]);
      expect(Object.keys(OPERATION_ERRORS).filter((id) => !ids.has(id))).toEqual([]);
    });

    it('serves Swagger UI at /docs without a token', async () => {
      const res = await fetch(`${t.baseUrl}/docs`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toMatch(/swagger-ui/i);
    });

    it('may not be framed and sends no referrer: its Authorize form takes a token (every /docs file)', async () => {
      for (const path of ['/docs', '/docs/swagger-ui-init.js', '/docs-json']) {
        const res = await fetch(`${t.baseUrl}${path}`);
        expect([path, res.status]).toEqual([path, 200]);
        expect({
          path,
          csp: res.headers.get('content-security-policy'),
          frame: res.headers.get('x-frame-options'),
          sniff: res.headers.get('x-content-type-options'),
          referrer: res.headers.get('referrer-policy'),
        }).toEqual({ path, csp: "frame-ancestors 'none'", frame: 'DENY', sniff: 'nosniff', referrer: 'no-referrer' });
      }
    });
  });

  describe('/metrics', () => {
    async function scrape() {
      const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      return parsePrometheusText(await res.text());
    }

    it('needs a token, like every route but /health', async () => {
      expect((await t.anonymous.get('/metrics')).status).toBe(401);
      const asAgent = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${alice.token}` } });
      expect(asAgent.status).toBe(200);
    });

    it('counts posts, summary jobs and their duration, and reports each channel backlog; the values move', async () => {
      const before = await scrape();
      expect(before.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true); // default process metrics too

      expect((await alice.post('/api/v1/channels', { name: 'metered', summaryThreshold: 5 })).status).toBe(201);
      await postMany(alice, 'metered', 5);
      await alice.post('/api/v1/channels/metered/messages', { type: 'QUERY', content: 'who reviews?' });
      await waitForSummary(alice, 'metered', (s) => s.version >= 1, 'the first summary');

      // The job's end is counted right after its last commit: wait for the counter, not a clock.
      const after = await waitFor(async () => {
        const s = await scrape();
        return sampleValue(s, 'qhorus_summary_jobs_total', { outcome: 'success' }) > sampleValue(before, 'qhorus_summary_jobs_total', { outcome: 'success' }) ? s : null;
      }, 'the summary job to be counted');
      expect(sampleValue(after, 'qhorus_messages_posted_total', { type: 'STATUS' }) - sampleValue(before, 'qhorus_messages_posted_total', { type: 'STATUS' })).toBe(5);
      expect(sampleValue(after, 'qhorus_messages_posted_total', { type: 'QUERY' }) - sampleValue(before, 'qhorus_messages_posted_total', { type: 'QUERY' })).toBe(1);
      expect(sampleValue(after, 'qhorus_summary_jobs_total', { outcome: 'success', tier: 'grouped' })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(after, 'qhorus_summary_job_duration_seconds_count', { outcome: 'success' })).toBeGreaterThan(
        sampleValue(before, 'qhorus_summary_job_duration_seconds_count', { outcome: 'success' }),
      );
      expect(sampleValue(after, 'qhorus_summary_updates_total', { source: 'job' })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(after, 'qhorus_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/channels/:name/messages', status: '201' })).toBe(
        sampleValue(before, 'qhorus_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/channels/:name/messages', status: '201' }) + 6,
      );

      // The backlog gauge is read from Postgres on each scrape: it equals the summary's `pending`.
      await postMany(alice, 'metered', 2, (i) => `after the summary ${i}`);
      const summary = await getSummary(alice, 'metered');
      const backlog = sampleValue(await scrape(), 'qhorus_channel_backlog', { channel: 'metered' });
      expect(backlog).toBe(summary.pending);
      expect(backlog).toBeGreaterThanOrEqual(2);
    });

    it('never names a private channel: private backlogs are summed under "_private"', async () => {
      expect((await alice.post('/api/v1/channels', { name: 'covert-ops', members: ['alice'], summaryThreshold: 100 })).status).toBe(201);
      await postMany(alice, 'covert-ops', 3);
      const text = await (await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${alice.token}` } })).text();
      expect(text).not.toContain('covert-ops');
      expect(sampleValue(await scrape(), 'qhorus_channel_backlog', { channel: '_private' })).toBeGreaterThanOrEqual(3);
    });

    it('counts failed summary jobs under outcome="failure"', async () => {
      const before = sampleValue(await scrape(), 'qhorus_summary_jobs_total', { outcome: 'failure' });
      await alice.post('/api/v1/channels', { name: 'doomed', summaryThreshold: 3, summariser: 'failing' });
      await postMany(alice, 'doomed', 3);
      await waitForSummary(alice, 'doomed', (s) => s.lastError !== null, 'the failure to be recorded');
      const failed = await waitFor(async () => {
        const v = sampleValue(await scrape(), 'qhorus_summary_jobs_total', { outcome: 'failure', tier: 'none' });
        return v > before ? v : null;
      }, 'the failed job to be counted');
      expect(failed).toBeGreaterThan(before);
    });

    it('labels unmatched requests with one route value, not the raw URL', async () => {
      await alice.get('/api/v1/no-such-thing/12345');
      const samples = await scrape();
      expect(samples.some((s) => s.labels.route?.includes('12345'))).toBe(false);
      expect(sampleValue(samples, 'qhorus_http_request_duration_seconds_count', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    });
  });

  describe('/health', () => {
    it('reports each dependency without a token', async () => {
      const res = await t.anonymous.get('/health');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'ok',
        details: { database: { status: 'up', backend: 'postgres' }, queue: { status: 'up', backend: 'redis' } },
      });
      expect((await t.anonymous.get('/health/live')).body).toEqual({ status: 'ok' });
    });

    it('stays ready on the api role when Redis is unreachable, reporting the queue as degraded', async () => {
      const broken = await startTestApp('ops-noredis', { env: { REDIS_URL: UNREACHABLE_REDIS_URL, QHORUS_ROLE: 'api' } });
      try {
        const res = await broken.anonymous.get('/health');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          status: 'degraded',
          details: { database: { status: 'up' }, queue: { status: 'degraded', backend: 'redis', message: 'Redis is unreachable' } },
        });
        expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/); // no driver text for anonymous callers
        expect((await broken.anonymous.get('/health/live')).status).toBe(200);
      } finally {
        await broken.close();
      }
    });

    // The worker role's 503 when Redis is down is pinned by apps/channel-service/test/health/readiness.spec.ts:
    // a worker-role app against an unreachable Redis surfaces a stray ECONNREFUSED into jest since
    // this round's merges (not yet traced), so it is not booted here; the indicator itself is the one above.
  });

  describe('embedded mode, and logs', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-ops-'));
    const { lines, stream: logs } = logLines();
    let embedded: TestApp;
    let adminToken: string;
    afterAll(async () => {
      await embedded?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    beforeAll(async () => {
      // nestjs-pino keeps one process-wide logger for logs outside a request, made by the first
      // app of the process: start afresh so this app's start-up logs reach this app's stream.
      __resetOutOfContextForTests();
      // No DATABASE_URL, no REDIS_URL, no admin token: the newcomer's default.
      embedded = await startTestApp('ops-embedded', {
        inProcessQueue: true,
        logDestination: logs,
        env: { DATABASE_URL: '', QHORUS_ADMIN_TOKEN: '', QHORUS_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
      });
      adminToken = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    });

    it('reports the embedded database and the in-process queue on /health', async () => {
      const res = await embedded.anonymous.get('/health');
      expect(res.status).toBe(200);
      expect(res.body.details).toEqual({ database: { status: 'up', backend: 'embedded' }, queue: { status: 'up', backend: 'in-process' } });
    });

    it('logs requests as JSON with a request id, and never a token or a secret in a message', async () => {
      const admin = embedded.anonymous.as(adminToken);
      const registered = await admin.post('/api/v1/agents', { name: 'logger-test' });
      expect(registered.status).toBe(201);
      const agentToken: string = registered.body.token;
      const agent = embedded.anonymous.as(agentToken);
      const secret = 'sk-live-very-secret-value-123456';
      expect((await agent.post('/api/v1/channels', { name: 'logged' })).status).toBe(201);
      const posted = await agent.post('/api/v1/channels/logged/messages', { content: 'deploying', metadata: { token: secret, nested: { apiKey: secret } } }, { 'x-request-id': 'req-ops-1' });
      expect(posted.status).toBe(201);
      expect(posted.headers.get('x-request-id')).toBe('req-ops-1');
      // The lifecycle routes: a rotation answers a new token (shown once, never logged), then a revocation.
      const rotated = await admin.post('/api/v1/agents/logger-test/token');
      expect(rotated.status).toBe(201);
      const rotatedToken: string = rotated.body.token;
      expect((await embedded.anonymous.as(rotatedToken).get('/api/v1/agents')).status).toBe(200);
      expect((await embedded.anonymous.as(agentToken).get('/api/v1/agents')).status).toBe(401);
      expect((await admin.request('DELETE', '/api/v1/agents/logger-test')).status).toBe(200);
      expect((await embedded.anonymous.as(rotatedToken).get('/api/v1/agents')).status).toBe(401);
      // Failures log too: a bad token, a bad body that carries the secret.
      expect((await embedded.anonymous.as(`${agentToken}x`).get('/api/v1/channels')).status).toBe(401);
      expect((await admin.post('/api/v1/channels/logged/messages', { content: 'x', token: secret })).status).toBe(400);

      const entries = await waitFor(async () => {
        const parsed = lines.map((l) => JSON.parse(l));
        return parsed.some((e) => e.req?.id === 'req-ops-1') && parsed.some((e) => e.res?.statusCode === 400) ? parsed : null;
      }, 'the request logs');
      const posting = entries.find((e) => e.req?.id === 'req-ops-1');
      expect(posting).toMatchObject({ req: { method: 'POST', url: '/api/v1/channels/logged/messages' }, res: { statusCode: 201 } });
      expect(entries.some((e) => e.req?.url === '/health')).toBe(false); // probes are not logged
      const all = lines.join('\n');
      expect(all).toContain(join(dataDir, 'admin-token')); // the generated admin token's *path* is logged…
      for (const s of [adminToken, agentToken, rotatedToken, secret]) expect(all).not.toContain(s); // …never a token
      // Nor a token's hash (what the database and the caches key on).
      for (const token of [adminToken, agentToken, rotatedToken]) expect(all).not.toContain(hashToken(token));
    });
  });
});
