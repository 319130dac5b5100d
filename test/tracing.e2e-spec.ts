import { randomUUID } from 'node:crypto';
import { FakeAnthropic, startFakeAnthropic } from '../libs/blocks-summarisation/test/fake-anthropic-server';
import { waitForSummary } from './support/channel-helpers';
import { ApiClient, waitFor } from './support/http';
import { CollectedSpan, OtlpCollector, startOtlpCollector } from './support/otlp-collector';
import { ServiceProcess, startServiceProcess } from './support/process-harness';
import { createTestDatabase } from './support/test-database';

const THRESHOLD = 3;
/** The SDK's batch processor exports this often (the standard variable; 5 s by default). */
const EXPORT_DELAY_MS = '200';

/**
 * DESIGN §13 through the built service and a collector on loopback: a post's trace holds its
 * Postgres spans, the summary job's span links to a post that triggered it, the model call is a
 * `gen_ai` span with the GenAI attributes, and no message content reaches any exported byte.
 */
describe.each(['http/json', 'http/protobuf'])('OpenTelemetry traces over OTLP %s', (protocol) => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let collector: OtlpCollector;
  let model: FakeAnthropic;
  let service: ServiceProcess;
  let agent: ApiClient;
  const secret = `never-in-a-span-${randomUUID()}`;
  const json = protocol === 'http/json';

  beforeAll(async () => {
    db = await createTestDatabase(`tracing_${protocol.replace('/', '_')}`);
    collector = await startOtlpCollector();
    model = await startFakeAnthropic(() => ({ kind: 'text', text: 'The team is building release 7.', stopReason: 'end_turn' }));
    service = await startServiceProcess({
      name: `traced-${protocol}`,
      databaseUrl: db.url,
      queuePrefix: `qtest-tracing-${process.pid}-${Date.now().toString(36)}`,
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
        OTEL_BSP_SCHEDULE_DELAY: EXPORT_DELAY_MS,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: model.baseURL,
        QHORUS_MODEL_SUMMARISER_POLICY: 'anyone',
        QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: '1',
      },
    });
    const registered = await service.admin.post('/api/v1/agents', { name: 'tracer' });
    agent = service.client(registered.body.token);
    expect((await agent.post('/api/v1/channels', { name: 'traced', summariser: 'llm', summaryThreshold: THRESHOLD })).status).toBe(201);
    for (let i = 0; i < THRESHOLD; i++) {
      expect((await agent.post('/api/v1/channels/traced/messages', { type: 'STATUS', content: `${secret} step ${i}` })).status).toBe(201);
    }
    await waitForSummary(agent, 'traced', (s) => s.version >= 1, 'the llm summary');
    // A query string that carries content (a search) or a credential is redacted on the server span.
    await agent.get(`/api/v1/channels/traced/messages?limit=1&q=${secret}&token=${secret}`);
  });

  afterAll(async () => {
    await service?.stop();
    await collector?.close();
    await model?.close();
    await db?.drop();
  });

  const exported = () => Buffer.concat(collector.bodies.map((b) => b.body));

  it('exports in the configured encoding, named qhorus, with no message content in any byte', async () => {
    await waitFor(async () => exported().includes('qhorus.summary.job') && exported().includes('chat '), 'the job and model spans to be exported');
    const expected = json ? 'application/json' : 'application/x-protobuf';
    expect(collector.bodies.every((b) => b.contentType.startsWith(expected))).toBe(true);
    const all = exported();
    expect(all.includes('qhorus.post')).toBe(true);
    expect(all.includes(Buffer.from('qhorus'))).toBe(true); // service.name
    expect(all.includes(secret)).toBe(false);
    expect(all.includes('test-key')).toBe(false);
    expect(all.includes(registeredTokenPrefix(agent))).toBe(false);
  });

  (json ? it : it.skip)('links the post, its Postgres spans, the summary job and the model call', async () => {
    const spans = await waitFor(async () => (collector.spans.some((s) => s.name.startsWith('chat ')) ? collector.spans : null), 'the model span');
    const posts = spans.filter((s) => s.name === 'qhorus.post');
    expect(posts.length).toBeGreaterThanOrEqual(THRESHOLD);
    // A post's trace: the HTTP server span above it, Postgres statements below it.
    const post = posts[0];
    const inTrace = spans.filter((s) => s.traceId === post.traceId);
    expect(inTrace.some((s) => s.kind === 2 && s.attributes['http.route'] !== undefined || s.name.startsWith('POST'))).toBe(true);
    const pgUnderPost = inTrace.filter((s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql');
    expect(pgUnderPost.some((s) => descendsFrom(s, post, spans))).toBe(true);
    expect(post.attributes).toMatchObject({ 'qhorus.channel': 'traced', 'qhorus.message.type': 'STATUS' });

    const job = spans.find((s) => s.name === 'qhorus.summary.job' && s.links.length > 0)!;
    expect(job).toBeDefined();
    expect(posts.map((p) => `${p.traceId}/${p.spanId}`)).toContain(`${job.links[0].traceId}/${job.links[0].spanId}`);
    expect(job.attributes).toMatchObject({ 'qhorus.channel': 'traced', 'qhorus.summary.from_seq': 1 });
    expect(job.attributes['qhorus.summary.through_seq']).toBeGreaterThanOrEqual(THRESHOLD);

    const chat = spans.find((s) => s.name.startsWith('chat '))!;
    expect(chat.traceId).toBe(job.traceId);
    expect(chat.attributes).toMatchObject({ 'gen_ai.system': 'anthropic', 'gen_ai.operation.name': 'chat' });
    expect(typeof chat.attributes['gen_ai.request.model']).toBe('string');
    expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
  });

  (json ? it : it.skip)('starts no trace at a Postgres call (or a Redis one, with Redis): each is inside a request or a job, and pool checkouts make no span', async () => {
    const spans = await waitFor(async () => (collector.spans.some((s) => s.name.startsWith('chat ')) ? collector.spans : null), 'the model span');
    const isDbCall = (s: CollectedSpan) => ['postgresql', 'redis'].includes(String(s.attributes['db.system'] ?? s.attributes['db.system.name']));
    const dbCalls = spans.filter(isDbCall);
    expect(dbCalls.length).toBeGreaterThan(0);
    expect(dbCalls.filter((s) => !s.parentSpanId).map((s) => s.name)).toEqual([]);
    expect(spans.filter((s) => /^pg(-pool)?\.connect$/.test(s.name)).map((s) => s.name)).toEqual([]);
  });

  (json ? it : it.skip)('names the trace in the log lines written inside it', async () => {
    const traced = service.logs().filter((l) => typeof l.trace_id === 'string');
    expect(traced.length).toBeGreaterThan(0);
    const traceIds = new Set(collector.spans.map((s) => s.traceId));
    expect(traced.some((l) => traceIds.has(l.trace_id))).toBe(true);
  });
});

function descendsFrom(span: CollectedSpan, ancestor: CollectedSpan, all: CollectedSpan[]): boolean {
  const byId = new Map(all.map((s) => [s.spanId, s]));
  for (let s: CollectedSpan | undefined = span; s?.parentSpanId; s = byId.get(s.parentSpanId)) {
    if (s.parentSpanId === ancestor.spanId) return true;
  }
  return false;
}

/** Enough of the agent's bearer token to find it anywhere. */
function registeredTokenPrefix(client: ApiClient): string {
  return client.token!.slice(0, 24);
}
