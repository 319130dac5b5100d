import { startTestApp, TestApp } from '../support/test-app';
import { ApiClient, waitFor } from '../support/http';

const BURST = 5;
const RATE_PER_SECOND = 2;
const BODY_LIMIT = 16 * 1024;
const MAX_DEPTH = 8;
const PAGE_MAX = 10;

const nestedMetadata = (bodyDepth: number) => {
  // The body object is level 1, metadata level 2: bodyDepth − 1 objects under "metadata".
  const levels = bodyDepth - 1;
  return `{"content":"deep","metadata":${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}}`;
};

describe('limits: per-agent rate limit (429 + Retry-After)', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('ratelimit', {
      inProcessQueue: true,
      env: { QHORUS_RATE_LIMIT_BURST: String(BURST), QHORUS_RATE_LIMIT_PER_SECOND: String(RATE_PER_SECOND) },
    });
    // Registration spends the admin's tokens, not the agents'.
    [alice, bob] = [await t.agent('alice'), await t.agent('bob')];
  });
  afterAll(() => t?.close());

  it('answers 429 with Retry-After once an agent spends its burst; nothing is written; other agents are unaffected; it refills', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'limited' })).status).toBe(201);
    const answers = [];
    for (let i = 1; i < BURST + 3; i++) answers.push(await alice.post('/api/v1/channels/limited/messages', { content: `m${i}` }));
    const statuses = answers.map((r) => r.status);
    const accepted = statuses.filter((s) => s === 201).length;
    expect(accepted).toBeLessThanOrEqual(BURST - 1); // one token went to creating the channel
    expect(statuses.slice(accepted).every((s) => s === 429)).toBe(true); // 201s first, then only 429s
    const refused = answers[accepted];
    expect(refused.body).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringMatching(/alice.*retry after \d+ s/i) });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);

    const read = await bob.get('/api/v1/channels/limited'); // bob has his own bucket
    expect(read.status).toBe(200);
    expect(read.body.lastSeq).toBe(accepted); // the 429s wrote nothing

    await waitFor(async () => (await alice.post('/api/v1/channels/limited/messages', { content: 'after the wait' })).status === 201, "alice's bucket to refill", 30_000, 250);
  });

  it('does not limit the public health probe', async () => {
    const answers = await Promise.all(Array.from({ length: BURST * 3 }, () => t.anonymous.get('/health/live')));
    expect(answers.every((r) => r.status === 200)).toBe(true);
  });
});

describe('limits: JSON depth, body size, page size, malformed input; the default rate limit', () => {
  let t: TestApp;
  let carol: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('bodylimits', {
      inProcessQueue: true,
      env: { QHORUS_BODY_LIMIT_BYTES: String(BODY_LIMIT), QHORUS_JSON_MAX_DEPTH: String(MAX_DEPTH), QHORUS_PAGE_LIMIT_MAX: String(PAGE_MAX) },
    });
    carol = await t.agent('carol');
    await t.admin.post('/api/v1/channels', { name: 'shapes' });
  });
  afterAll(() => t?.close());

  it(`accepts metadata nested to QHORUS_JSON_MAX_DEPTH (${MAX_DEPTH}) and answers 400 one level deeper, writing nothing`, async () => {
    expect((await carol.request('POST', '/api/v1/channels/shapes/messages', nestedMetadata(MAX_DEPTH))).status).toBe(201);
    const deeper = await carol.request('POST', '/api/v1/channels/shapes/messages', nestedMetadata(MAX_DEPTH + 1));
    expect(deeper.status).toBe(400);
    expect(deeper.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/deeper than 8 levels.*QHORUS_JSON_MAX_DEPTH/) });
    const hostile = await carol.request('POST', '/api/v1/channels/shapes/messages', `{"content":"x","metadata":{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`);
    expect(hostile.status).toBe(400);
    expect((await carol.get('/api/v1/channels/shapes')).body.lastSeq).toBe(1);
  });

  it('answers a body over QHORUS_BODY_LIMIT_BYTES with 413 in the API error shape', async () => {
    const res = await carol.post('/api/v1/channels/shapes/messages', { content: 'x'.repeat(BODY_LIMIT + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: expect.any(String) });
  });

  it.each([
    ['malformed JSON', '{"content": ', 'application/json', 400],
    ['an empty JSON body (no body: the fields are missing)', '', 'application/json', 400],
    ['a body in a media type the API does not speak', '<content>x</content>', 'application/xml', 415],
  ])('answers %s with a 4xx in the API error shape, never a 500', async (_, body, contentType, status) => {
    const res = await fetch(`${t.baseUrl}/api/v1/channels/shapes/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${carol.token}`, 'content-type': contentType },
      body,
    });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  });

  it('answers a URL that cannot be decoded, and an unknown route, in the API error shape', async () => {
    const badUrl = await carol.get('/api/v1/channels/%E0%A4%A/messages');
    expect(badUrl.status).toBe(400);
    expect(badUrl.body).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringMatching(/not a valid url/) });
    const unknown = await carol.get('/api/v1/nowhere');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
  });

  it(`pages up to QHORUS_PAGE_LIMIT_MAX (${PAGE_MAX}) and refuses a larger limit naming the maximum (never a short page)`, async () => {
    for (let i = 0; i < PAGE_MAX + 2; i++) expect((await carol.post('/api/v1/channels/shapes/messages', { content: `p${i}` })).status).toBe(201);
    const page = await carol.get(`/api/v1/channels/shapes/messages?limit=${PAGE_MAX}`);
    expect(page.status).toBe(200);
    expect(page.body).toHaveLength(PAGE_MAX);
    const problem = `must be at most ${PAGE_MAX} (QHORUS_PAGE_LIMIT_MAX)`;
    for (const path of ['/api/v1/channels/shapes/messages', '/api/v1/channels/shapes/threads', '/api/v1/channels/shapes/threads/none', '/api/v1/inbox']) {
      const over = await carol.get(`${path}?limit=${PAGE_MAX + 1}`);
      expect({ path, status: over.status, details: over.body.details }).toEqual({ path, status: 400, details: [{ field: 'limit', problems: [problem] }] });
    }
    const audit = await t.admin.get(`/api/v1/audit?limit=${PAGE_MAX + 1}`);
    expect({ status: audit.status, details: audit.body.details }).toEqual({ status: 400, details: [{ field: 'limit', problems: [problem] }] });
    expect((await t.admin.get(`/api/v1/audit?limit=${PAGE_MAX}`)).status).toBe(200);
    const tail = await carol.get(`/api/v1/channels/shapes/messages?tail=${PAGE_MAX * 10}`);
    expect(tail.body).toMatchObject({ statusCode: 400, message: `Invalid request: tail ${problem}` });
  });

  it('lets one agent post 300 messages at once with the default rate limit (no 429)', async () => {
    const busy = await t.agent('busy');
    await busy.post('/api/v1/channels', { name: 'burst' });
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => busy.post('/api/v1/channels/burst/messages', { content: `m${i}` })));
    expect(answers.filter((r) => r.status !== 201).map((r) => r.status)).toEqual([]);
  });
});
