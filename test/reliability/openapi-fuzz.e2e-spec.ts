import { MAX_SUMMARY_THRESHOLD } from '../../apps/channel-service/src/channels/dto/channel-name';
import { ApiClient, waitFor } from '../support/http';
import { loadSwaggerPluginMetadata } from '../support/swagger-plugin-metadata';
import { startAnotherInstance, startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { DatabaseFingerprint } from './database-fingerprint';
import { casesFrom, OpenApiCase } from './openapi-cases';

/** Per request: an answer later than this is a hang. */
const REQUEST_TIMEOUT_MS = 15_000;
/** Over the default content limit (64 KiB), under the body limit (1 MiB). */
const HUGE_LENGTH = 70_000;
/** Over the default JSON depth limit (32). */
const DEEP_NESTING = 40;
/** Requests sent at most (cases × callers); past it, an even sample of the cases, so the file stays well under 2 minutes. */
const MAX_REQUESTS = 2_000;
/** After an accepted request, how long to let anything it set off settle before taking the next fingerprint. */
const SETTLE_MS = 30;

interface Answer {
  status: number;
  body: unknown;
}

async function send(baseUrl: string, c: OpenApiCase, token: string): Promise<Answer> {
  const res = await fetch(baseUrl + c.path, {
    method: c.method,
    headers: { ...c.headers, authorization: `Bearer ${token}` },
    body: c.method === 'GET' || c.method === 'DELETE' ? undefined : c.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  if ((res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await res.body?.cancel();
    return { status: res.status, body: null };
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, body };
}

/** Every `step`-th case, so every operation and field keeps some of its cases. */
const evenSample = <T>(all: T[], max: number): T[] => (all.length <= max ? all : all.filter((_, i) => i % Math.ceil(all.length / max) === 0));

/**
 * Issue 14 item 7: cases generated from the service's own OpenAPI document (`/docs-json`), for
 * every operation: every body property, query and header parameter and path parameter gets
 * hostile values by its declared type, sent as an agent and as the admin. No answer ≥ 500, none
 * later than REQUEST_TIMEOUT_MS, and a refused request (≥ 400) writes nothing. The hand-listed
 * fuzz (fuzz.e2e-spec.ts) stays: it covers what a schema cannot describe (broken JSON, media types).
 */
describe('schema-driven fuzz: every field of every operation of /docs-json', () => {
  let t: TestApp;
  let fingerprint: DatabaseFingerprint;
  let member: ApiClient;
  const statuses = new Map<number, number>();
  let sent = 0;

  beforeAll(async () => {
    // The DTOs' schemas, as `nest build` describes them (jest's compiler does not run the swagger plugin).
    await loadSwaggerPluginMetadata();
    // An api-role instance runs no summary jobs: whatever changes the database is the request itself.
    t = await startTestApp('oafuzz', { env: { QHORUS_ROLE: 'api', QHORUS_RATE_LIMIT_BURST: '10000000', QHORUS_RATE_LIMIT_PER_SECOND: '10000000' } });
    member = await t.agent('oaf-member');
    expect((await member.post('/api/v1/channels', { name: 'oaf-open', summaryThreshold: MAX_SUMMARY_THRESHOLD })).status).toBe(201);
    // Thread summaries are summary-queue jobs: a worker instance on the same database and queue
    // makes the fixture thread's summary, then leaves before the fuzz starts.
    const worker = await startAnotherInstance(t, { env: { QHORUS_ROLE: 'worker' } });
    try {
      await member.post('/api/v1/channels/oaf-open/messages', { type: 'QUERY', content: 'status?', correlationId: 'oaf-thread' });
      await member.post('/api/v1/channels/oaf-open/messages', { type: 'DONE', correlationId: 'oaf-thread' });
      expect((await t.admin.put('/api/v1/channels/oaf-open/summary', { text: 'fixture summary' })).status).toBe(200);
      await waitFor(async () => (await member.get('/api/v1/channels/oaf-open/threads/oaf-thread/summary')).status === 200, 'the thread summary');
    } finally {
      await worker.app.close();
    }
    fingerprint = await DatabaseFingerprint.connect(t.databaseUrl);
  });
  afterAll(async () => {
    await fingerprint?.close();
    await t?.close();
    console.log(`openapi fuzz: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
  });

  it('answers every generated case below 500, in time, and writes nothing it refused', async () => {
    const doc = (await t.anonymous.get('/docs-json')).body;
    // Deleting the fixture channel as documented would turn every later case into a 404 (the
    // deletion's own bad input is covered in redaction.e2e-spec.ts); its hostile cases stay.
    const deletesFixture = (c: { method: string; path: string }) => c.method === 'DELETE' && c.path === '/api/v1/channels/oaf-open';
    const all = casesFrom(doc, { pathValues: { name: 'oaf-open', correlationId: 'oaf-thread' }, pathDefault: 'oaf-open', hugeLength: HUGE_LENGTH, deepNesting: DEEP_NESTING }).filter((c) => !deletesFixture(c));
    const operations = new Set(all.map((c) => `${c.method} ${c.route}`));
    expect(operations.size).toBeGreaterThan(15);
    const callers = [member.token!, TEST_ADMIN_TOKEN];
    const cases = evenSample(all, MAX_REQUESTS / callers.length);
    console.log(`openapi fuzz: ${operations.size} operations, ${all.length} cases generated, ${cases.length} × ${callers.length} callers sent`);

    const failures: string[] = [];
    const byStatus = new Map<number, string[]>();
    let digest = await fingerprint.digest();
    for (const c of cases) {
      for (const token of callers) {
        const who = token === TEST_ADMIN_TOKEN ? 'admin' : 'agent';
        const what = `${who} ${c.method} ${c.route}: ${c.what}`;
        let answer: Answer;
        try {
          answer = await send(t.baseUrl, c, token);
        } catch (err) {
          failures.push(`${what} → no answer (${(err as Error).name})`);
          continue;
        }
        sent++;
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (process.env.OAF_DEBUG) byStatus.set(answer.status, [...(byStatus.get(answer.status) ?? []), `${what} ${JSON.stringify(answer.body).slice(0, 120)}`]);
        if (answer.status >= 500) failures.push(`${what} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
        if (answer.status >= 400) {
          const after = await fingerprint.digest();
          if (after !== digest) failures.push(`${what} → ${answer.status} but the database changed`);
          digest = after;
        } else {
          await new Promise((r) => setTimeout(r, SETTLE_MS));
          digest = await fingerprint.digest();
        }
      }
    }
    if (process.env.OAF_DEBUG) for (const [status, list] of byStatus) console.log(status, list.slice(0, 40).join('\n'));
    expect(failures).toEqual([]);
  });
});
