import { request as httpRequest } from 'node:http';
import { startTestApp, TestApp } from './support/test-app';

/** A raw request (fetch refuses TRACE and CONNECT). */
function raw(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(baseUrl + path, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Issue 28 item 2: 401 carries a Bearer challenge; a method a path does not serve is 405 with Allow. */
describe('HTTP semantics: WWW-Authenticate on 401, 405 with Allow', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp('http-semantics', { inProcessQueue: true });
  });
  afterAll(() => t?.close());

  it('answers 401 with WWW-Authenticate: Bearer, and error="invalid_token" when a token was sent', async () => {
    const missing = await t.anonymous.get('/api/v1/channels');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="qhorus"');
    const bogus = await t.anonymous.as('qh_not-a-real-token').get('/api/v1/channels');
    expect(bogus.status).toBe(401);
    expect(bogus.headers.get('www-authenticate')).toBe('Bearer realm="qhorus", error="invalid_token", error_description="Unknown or revoked token"');
    expect(bogus.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Unknown or revoked token' });
    const mcp = await t.anonymous.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toMatch(/^Bearer realm="qhorus"/);
  });

  it('answers a method a path does not serve with 405, Allow and the JSON error shape; an unknown path stays 404', async () => {
    const put = await t.admin.put('/api/v1/channels', {});
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(put.body).toEqual({ statusCode: 405, error: 'Method Not Allowed', message: 'Method PUT is not allowed on /api/v1/channels; it serves GET, HEAD, POST' });
    const del = await t.admin.request('DELETE', '/api/v1/channels/some-channel/messages');
    expect([del.status, del.headers.get('allow')]).toEqual([405, 'GET, HEAD, POST']);
    const trace = await raw(t.baseUrl, 'TRACE', '/api/v1/channels', { authorization: 'Bearer x' });
    expect([trace.status, trace.headers.allow, trace.body.statusCode]).toEqual([405, 'GET, HEAD, POST', 405]);
    // GET and DELETE /mcp answer 405 themselves (stateless MCP): /mcp serves POST only, whatever the method asked.
    const patchMcp = await t.admin.patch('/mcp', {});
    expect([patchMcp.status, patchMcp.headers.get('allow')]).toEqual([405, 'POST']);
    for (const method of ['GET', 'DELETE', 'HEAD', 'PUT']) {
      const answer = await raw(t.baseUrl, method, '/mcp', { authorization: `Bearer ${t.admin.token}` });
      expect({ method, status: answer.status, allow: answer.headers.allow }).toEqual({ method, status: 405, allow: 'POST' });
    }
    const nowhere = await t.admin.put('/api/v1/nowhere', {});
    expect(nowhere.status).toBe(404);
    expect(nowhere.headers.get('allow')).toBeNull();
  });
});

/** Issue 28 item 6: every limit error names the setting to change. */
describe('limit errors name their setting', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp('limit-names', {
      inProcessQueue: true,
      env: { QHORUS_BODY_LIMIT_BYTES: '4096', QHORUS_MAX_CONTENT_BYTES: '1024', QHORUS_RATE_LIMIT_BURST: '5', QHORUS_RATE_LIMIT_PER_SECOND: '1' },
    });
  });
  afterAll(() => t?.close());

  it('413 for the body and the content, 429 for the per-agent rate, each naming its setting', async () => {
    const agent = await t.agent('limited');
    expect((await t.admin.post('/api/v1/channels', { name: 'limits' })).status).toBe(201);
    const body = await agent.post('/api/v1/channels/limits/messages', { content: 'x'.repeat(5000) });
    expect(body.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is over the limit of 4096 bytes (QHORUS_BODY_LIMIT_BYTES)' });
    const content = await agent.post('/api/v1/channels/limits/messages', { content: 'x'.repeat(2000) });
    expect(content.body).toMatchObject({ statusCode: 413, message: 'content is 2000 bytes; the limit is 1024 (QHORUS_MAX_CONTENT_BYTES)' });
    const answers = await Promise.all(Array.from({ length: 10 }, () => agent.get('/api/v1/channels/limits')));
    const limited = answers.find((a) => a.status === 429);
    expect(limited?.body.message).toMatch(/^Rate limit exceeded for 'limited' \(QHORUS_RATE_LIMIT_PER_SECOND, QHORUS_RATE_LIMIT_BURST\): retry after \d+ s$/);
  });
});

/** Issue 28 item 3: /mcp checks Host and Origin against the service's own addresses and QHORUS_ALLOWED_HOSTS. */
describe('/mcp refuses a Host or Origin that is not the service (DNS rebinding)', () => {
  let t: TestApp;
  const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

  beforeAll(async () => {
    t = await startTestApp('mcp-hosts', { inProcessQueue: true, env: { QHORUS_ALLOWED_HOSTS: 'qhorus.example.com, qhorus' } });
  });
  afterAll(() => t?.close());

  function mcp(headers: Record<string, string>, path = '/mcp', body = LIST): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(`${t.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.admin.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('serves its own addresses and the allowed names, with or without an Origin', async () => {
    const port = new URL(t.baseUrl).port;
    const cases: Record<string, string>[] = [{}, { host: `localhost:${port}` }, { host: 'qhorus.example.com' }, { host: 'qhorus:3000', origin: 'https://qhorus.example.com' }, { origin: `http://127.0.0.1:${port}` }];
    for (const headers of cases) {
      const answer = await mcp(headers);
      expect({ headers, status: answer.status, tools: Array.isArray(answer.body.result?.tools) }).toEqual({ headers, status: 200, tools: true });
    }
    // /mcp spelled otherwise is the same route: its errors are JSON-RPC errors there too.
    const broken = await mcp({}, '/%6dcp', '{"jsonrpc":');
    expect([broken.status, broken.body.jsonrpc, broken.body.error?.code]).toEqual([400, '2.0', -32700]);
  });

  it('refuses another Host or Origin with 403 naming it and the setting, before authenticating', async () => {
    const rebound = await mcp({ host: 'attacker.example:3000' });
    expect(rebound).toEqual({ status: 403, body: { statusCode: 403, error: 'Forbidden', message: "Host 'attacker.example:3000' is not one of this service's addresses; add the name to QHORUS_ALLOWED_HOSTS to accept it on /mcp" } });
    const page = await mcp({ origin: 'https://attacker.example' });
    expect([page.status, page.body.message]).toEqual([403, expect.stringMatching(/^Origin 'https:\/\/attacker.example' is not/)]);
    expect((await mcp({ origin: 'null' })).status).toBe(403);
    // However the path is spelled, if it routes to /mcp it is checked (a rebinding page picks the path too).
    for (const path of ['/%6dcp', '/%6Dcp', '/%6d%63%70?x=1']) {
      expect({ path, status: (await mcp({ host: 'attacker.example' }, path)).status }).toEqual({ path, status: 403 });
      expect({ path, status: (await mcp({ origin: 'https://attacker.example' }, path)).status }).toEqual({ path, status: 403 });
    }
    // The REST API is not a browser target of this rule: only /mcp is checked.
    const rest = await raw(t.baseUrl, 'GET', '/api/v1/channels', { authorization: `Bearer ${t.admin.token}`, host: 'attacker.example' });
    expect(rest.status).toBe(200);
  });
});
