import { FakeAnthropic, startFakeAnthropic } from '../libs/blocks-summarisation/test/fake-anthropic-server';
import { FAKE_MODEL_PROVIDERS, FakeModelServer } from './support/fake-model-providers';
import { getSummary, postMany, waitForSummary } from './support/channel-helpers';
import { ApiClient, waitFor } from './support/http';
import { parsePrometheusText, sampleValue } from './support/prometheus-text';
import { startTestApp, TestApp } from './support/test-app';

/** Far above any backlog here: summaries run only when a test asks (refresh). */
const MANUAL_ONLY = 10_000;
const CALLS_PER_HOUR = 2;
/** The fake Messages API reports this usage for every answer (fake-anthropic-server.ts). */
const FAKE_INPUT_TOKENS = 10;
const FAKE_OUTPUT_TOKENS = 5;
/** More than the tiered medium tier (20): such a batch goes to the model. */
const LARGE_BATCH = 21;
/** In a channel's description: the fake model fails every call of that channel. */
const FAILING_MODEL = 'model-always-fails';

const threadSummary = async (client: ApiClient, channel: string, correlationId: string) =>
  waitFor(async () => {
    const res = await client.get(`/api/v1/channels/${channel}/threads/${correlationId}/summary`);
    return res.status === 200 ? res.body : null;
  }, `the summary of thread ${correlationId}`);

/** A QUERY and its RESPONSE: a thread that opens and closes (its summary job follows the close). */
async function closeThread(client: ApiClient, channel: string, correlationId: string) {
  await client.post(`/api/v1/channels/${channel}/messages`, { type: 'QUERY', content: `is ${correlationId} done?`, correlationId });
  await client.post(`/api/v1/channels/${channel}/messages`, { type: 'RESPONSE', content: `${correlationId} is done`, correlationId });
  return threadSummary(client, channel, correlationId);
}

async function refresh(client: ApiClient, channel: string) {
  expect((await client.post(`/api/v1/channels/${channel}/summary/refresh`)).status).toBe(202);
}

/** Posts a batch, refreshes, and waits for the next version. */
async function summariseBatch(client: ApiClient, channel: string, count: number) {
  const before = await getSummary(client, channel);
  await postMany(client, channel, count, (i) => `${channel} update ${before.version}.${i}`);
  await refresh(client, channel);
  return waitForSummary(client, channel, (s) => s.version === before.version + 1, `${channel} v${before.version + 1}`);
}

async function metrics(t: TestApp) {
  return parsePrometheusText((await t.admin.get('/metrics')).body);
}

/**
 * Issue 15, item 4: a per-channel model budget, metered where the LLM tier calls the model (the
 * real SDK against a local Messages API server). A spent budget makes no call, keeps the summary
 * and says why in `degraded`, which survives later commits.
 */
describe('model budgets per channel', () => {
  let fake: FakeAnthropic;
  let t: TestApp;

  beforeAll(async () => {
    // A channel described as FAILING_MODEL gets HTTP 500s (the description is in the prompt).
    fake = await startFakeAnthropic((req) => (req.rawBody.includes(FAILING_MODEL) ? { kind: 'error', status: 500 } : 'The model wrote this summary.'));
    t = await startTestApp('model-budget', {
      inProcessQueue: true,
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseURL, QHORUS_MODEL_CALLS_PER_HOUR: String(CALLS_PER_HOUR), QHORUS_JOB_ATTEMPTS: '1' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('tiered: model calls stop at the budget, the text falls back to the heuristic, and `degraded` says why through later commits', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'spend', summariser: 'tiered', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    for (let call = 1; call <= CALLS_PER_HOUR; call++) {
      const s = await summariseBatch(t.admin, 'spend', LARGE_BATCH);
      expect(s).toMatchObject({ text: 'The model wrote this summary.', annotations: { tier: 'synthesised' }, degraded: null });
    }
    const requests = fake.requests.length;
    const spent = await summariseBatch(t.admin, 'spend', LARGE_BATCH);
    expect(fake.requests.length).toBe(requests); // no call was made
    expect(spent.annotations.tier).toBe('grouped');
    expect(spent.annotations.tierFallback).toMatch(/model budget spent/);
    expect(spent.lastError).toBeNull();
    expect(spent.degraded).toMatch(new RegExp(`${CALLS_PER_HOUR} of ${CALLS_PER_HOUR} model calls this hour \\(QHORUS_MODEL_CALLS_PER_HOUR\\)`));
    expect(spent.degradedAt).toEqual(expect.any(String));
    // A later commit (a small batch, no model needed) clears lastError as always, but not `degraded`.
    const later = await summariseBatch(t.admin, 'spend', 3);
    expect(later.annotations.tier).toBe('verbatim');
    expect(later.degraded).toBe(spent.degraded);

    const samples = await metrics(t);
    expect(sampleValue(samples, 'qhorus_model_calls_total', { strategy: 'tiered', channel: 'spend' })).toBe(CALLS_PER_HOUR);
    expect(sampleValue(samples, 'qhorus_model_tokens_total', { strategy: 'tiered', channel: 'spend', kind: 'input' })).toBe(CALLS_PER_HOUR * FAKE_INPUT_TOKENS);
    expect(sampleValue(samples, 'qhorus_model_tokens_total', { strategy: 'tiered', channel: 'spend', kind: 'output' })).toBe(CALLS_PER_HOUR * FAKE_OUTPUT_TOKENS);
    expect(sampleValue(samples, 'qhorus_model_calls_refused_total', { strategy: 'tiered', channel: 'spend', budget: 'calls_per_hour' })).toBe(1);
  });

  it('llm: thread summaries spend the channel\'s budget too; past it a closing message makes no call and the default summarises the thread, saying why', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'closer', summariser: 'llm', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    const before = fake.requests.length;
    const summaries = [];
    for (let k = 1; k <= CALLS_PER_HOUR + 2; k++) summaries.push(await closeThread(t.admin, 'closer', `close-${k}`));
    expect(fake.requests.length - before).toBe(CALLS_PER_HOUR);
    expect(summaries.slice(0, CALLS_PER_HOUR).map((s) => [s.text, s.annotations.tierFallback])).toEqual(Array(CALLS_PER_HOUR).fill(['The model wrote this summary.', undefined]));
    for (const spent of summaries.slice(CALLS_PER_HOUR)) {
      expect(spent.annotations.tier).toBe('grouped');
      expect(spent.annotations.tierFallback).toMatch(/^llm->default: model budget spent: 2 of 2 model calls this hour/);
    }
    const samples = await metrics(t);
    expect(sampleValue(samples, 'qhorus_model_calls_total', { strategy: 'llm', channel: 'closer' })).toBe(CALLS_PER_HOUR);
    expect(sampleValue(samples, 'qhorus_model_calls_refused_total', { strategy: 'llm', channel: 'closer', budget: 'calls_per_hour' })).toBe(2);
  });

  it('llm: while the channel\'s summary is cooling down after a model failure, closing a thread calls no model', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'broken', description: FAILING_MODEL, summariser: 'llm', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    await postMany(t.admin, 'broken', 2);
    await refresh(t.admin, 'broken');
    await waitForSummary(t.admin, 'broken', (s) => s.lastError !== null, 'the failed step');
    const after = fake.requests.length;
    const summary = await closeThread(t.admin, 'broken', 'while-down');
    expect(fake.requests.length).toBe(after);
    expect(summary.annotations.tierFallback).toMatch(/^llm->default: the channel's summariser is cooling down after a failure: /);
    expect(summary.text).toContain('while-down');
  });

  it('counts a private channel under _private, never by name', async () => {
    await t.agent('keeper');
    expect((await t.admin.post('/api/v1/channels', { name: 'hush-hush', summariser: 'llm', summaryThreshold: MANUAL_ONLY, members: ['keeper'] })).status).toBe(201);
    await summariseBatch(t.admin, 'hush-hush', 2);
    const text: string = (await t.admin.get('/metrics')).body;
    expect(text).not.toContain('hush-hush');
    expect(sampleValue(parsePrometheusText(text), 'qhorus_model_calls_total', { strategy: 'llm', channel: '_private' })).toBe(1);
  });
});

describe.each(FAKE_MODEL_PROVIDERS)('a plain llm channel past its budget ($name)', (provider) => {
  let fake: FakeModelServer;
  let t: TestApp;

  beforeAll(async () => {
    fake = await provider.start(() => 'The model wrote this summary.');
    t = await startTestApp(`llm-budget-${provider.name}`, {
      inProcessQueue: true,
      env: { ...provider.env(fake.baseURL), QHORUS_MODEL_CALLS_PER_HOUR: String(CALLS_PER_HOUR), QHORUS_JOB_ATTEMPTS: '1' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('makes no call and commits the true state with the heuristic report, degraded; lastError and degraded say why', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'thinker', summariser: 'llm', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    await t.admin.post('/api/v1/channels/thinker/messages', { type: 'COMMAND', correlationId: 'c-1', content: 'tag the release' });
    for (let call = 1; call <= CALLS_PER_HOUR; call++) await summariseBatch(t.admin, 'thinker', 2);
    const kept = await getSummary(t.admin, 'thinker');
    expect(kept.text).toBe('The model wrote this summary.');
    expect(kept.annotations).toMatchObject({ provider: provider.name, tier: 'synthesised' });
    const requests = fake.requests.length;
    await t.admin.post('/api/v1/channels/thinker/messages', { type: 'DONE', correlationId: 'c-1', content: 'tagged' });
    await refresh(t.admin, 'thinker');
    const spent = await waitForSummary(t.admin, 'thinker', (s) => s.version === kept.version + 1, 'the degraded step');
    expect(fake.requests.length).toBe(requests);
    expect(spent.coversThroughSeq).toBe(spent.lastSeq);
    expect(JSON.parse(spent.annotations.openThreads)).toEqual([]);
    expect(spent.text.trim()).not.toBe('');
    expect(spent.text).not.toBe(kept.text);
    expect(spent.annotations).toMatchObject({ tier: 'grouped', degraded: 'true', degradedReason: expect.stringMatching(/^model budget spent: 2 of 2 model calls this hour/) });
    expect(spent.lastError).toMatch(/model budget spent/);
    expect(spent.degraded).toMatch(/QHORUS_MODEL_CALLS_PER_HOUR/);
    const samples = await metrics(t);
    expect(sampleValue(samples, 'qhorus_summary_jobs_total', { outcome: 'degraded', tier: 'grouped' })).toBe(1);
    expect(sampleValue(samples, 'qhorus_summary_jobs_total', { outcome: 'success', tier: 'synthesised' })).toBe(CALLS_PER_HOUR);
  });
});

describe('the tokens-per-day budget', () => {
  let fake: FakeAnthropic;
  let t: TestApp;
  const TOKENS_PER_DAY = 2 * (FAKE_INPUT_TOKENS + FAKE_OUTPUT_TOKENS);

  beforeAll(async () => {
    fake = await startFakeAnthropic(() => 'Tokens were spent.');
    t = await startTestApp('token-budget', {
      inProcessQueue: true,
      env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: fake.baseURL, QHORUS_MODEL_TOKENS_PER_DAY: String(TOKENS_PER_DAY), QHORUS_JOB_ATTEMPTS: '1' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('stops model calls once the day’s tokens (as the API reported them) reach the budget', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'wordy', summariser: 'tiered', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    await summariseBatch(t.admin, 'wordy', LARGE_BATCH);
    await summariseBatch(t.admin, 'wordy', LARGE_BATCH);
    const spent = await summariseBatch(t.admin, 'wordy', LARGE_BATCH);
    expect(fake.requests).toHaveLength(2);
    expect(spent.degraded).toMatch(new RegExp(`${TOKENS_PER_DAY} of ${TOKENS_PER_DAY} tokens today \\(QHORUS_MODEL_TOKENS_PER_DAY\\)`));
    await waitFor(async () => sampleValue(await metrics(t), 'qhorus_model_calls_refused_total', { budget: 'tokens_per_day' }) === 1, 'the refusal counted');
  });
});
