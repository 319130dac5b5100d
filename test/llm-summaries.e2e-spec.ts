import { Message } from '@qhorus/api';
import { renderMessage } from '@qhorus/blocks-channel-summary';
import { LlmContentSummariser, LlmSummaryMode, OpenAiModelClient } from '@qhorus/blocks-summarisation';
import OpenAI from 'openai';
import { FakeAnthropicReply, replyError, replyHang, replyText } from '../libs/blocks-summarisation/test/fake-anthropic-server';
import { FakeOpenAi, openAiPrompt, startFakeOpenAi } from '../libs/blocks-summarisation/test/fake-openai-server';
import { ApiClient, waitFor } from './support/http';
import { getSummary, postMany, waitForQuietSummary, waitForSummary } from './support/channel-helpers';
import { FAKE_MODEL_PROVIDERS, FakeModelServer } from './support/fake-model-providers';
import { parsePrometheusText, sampleValue } from './support/prometheus-text';
import { startTestApp, TestApp } from './support/test-app';

/** Far above any backlog here: summaries run only when a test asks (refresh). */
const MANUAL_ONLY = 10_000;
const LLM_TIMEOUT_MS = 500;
const JOB_ATTEMPTS = 2;
/** The lowest threshold the cost guard allows a model-backed channel (its default). */
const MODEL_MIN_THRESHOLD = 10;

/** How the fake model answers right now; tests switch it. */
type ModelBehaviour = () => FakeAnthropicReply;
const answers = (text: string): ModelBehaviour => () => replyText(text);

/**
 * Issue 4: the tiered and LLM strategies in the running service, against a local server speaking
 * the provider's API (the real SDK pointed at it through the base URL): the Anthropic Messages API,
 * and (issue 31) an OpenAI-compatible Chat Completions server.
 */
describe.each(FAKE_MODEL_PROVIDERS)('tiered and LLM summaries against a fake $name API', (provider) => {
  let fake: FakeModelServer;
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, dave: ApiClient;
  let behaviour: ModelBehaviour = answers('unused');

  const participants = (s: { annotations: Record<string, string> }) => JSON.parse(s.annotations.participants ?? '[]').sort();
  /** Posts `count` messages, refreshes, and waits for the next version. */
  async function summariseBatch(channel: string, who: ApiClient, count: number, label: string) {
    const before = await getSummary(who, channel);
    await postMany(who, channel, count, (i) => `${label} ${i}`);
    expect((await who.post(`/api/v1/channels/${channel}/summary/refresh`)).status).toBe(202);
    return waitForSummary(who, channel, (s) => s.version === before.version + 1, `${channel} after ${label}`);
  }

  beforeAll(async () => {
    fake = await provider.start(() => behaviour());
    t = await startTestApp(`llm-${provider.name}`, {
      env: {
        ...provider.env(fake.baseURL),
        QHORUS_LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        QHORUS_JOB_ATTEMPTS: String(JOB_ATTEMPTS),
        QHORUS_MODEL_SUMMARISER_POLICY: 'anyone', // the agents here pick the model-backed strategies themselves
      },
    });
    [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((n) => t.agent(n)));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('picks the tier by batch size: 6 → grouped, 5 → verbatim, 21 → synthesised with the model’s text, 20 → grouped; participants accumulate over every tier', async () => {
    const created = await alice.post('/api/v1/channels', { name: 'tiers', summariser: 'tiered', summaryThreshold: MANUAL_ONLY, description: 'Release planning' });
    expect(created.status).toBe(201);
    expect(created.body.warnings).toEqual([]);

    const grouped = await summariseBatch('tiers', alice, 6, 'alice plans');
    expect(grouped.annotations).toMatchObject({ tier: 'grouped', itemCount: '6' });
    expect(participants(grouped)).toEqual(['alice']);

    const verbatim = await summariseBatch('tiers', bob, 5, 'bob notes');
    expect(verbatim.annotations).toMatchObject({ tier: 'verbatim', itemCount: '5' });
    expect(verbatim.text).toContain('STATUS bob [general]: bob notes 4');
    // The state tracker runs on every batch, whatever tier writes the text (issue 13).
    expect(participants(verbatim)).toEqual(['alice', 'bob']);

    behaviour = answers('Release planning: alice planned, bob noted, carol reported 21 updates.');
    const requestsBefore = fake.requests.length;
    const synthesised = await summariseBatch('tiers', carol, 21, 'carol reports');
    expect(synthesised.text).toBe('Release planning: alice planned, bob noted, carol reported 21 updates.');
    expect(synthesised.annotations).toMatchObject({ tier: 'synthesised', itemCount: '21', provider: provider.name, model: fake.requests[fake.requests.length - 1].body.model });
    expect(synthesised.annotations.tierFallback).toBeUndefined();
    expect(participants(synthesised)).toEqual(['alice', 'bob', 'carol']);
    // The real SDK sent one Messages API request, grounded on the description and carrying the batch.
    expect(fake.requests.length).toBe(requestsBefore + 1);
    const prompt = provider.promptOf(fake.requests[fake.requests.length - 1]);
    expect(prompt).toContain('Release planning');
    expect(prompt).toContain('New items (21):');
    expect(prompt).toContain('carol reports 20');

    const regrouped = await summariseBatch('tiers', dave, 20, 'dave checks');
    expect(regrouped.annotations).toMatchObject({ tier: 'grouped', itemCount: '20' });
    expect(participants(regrouped)).toEqual(['alice', 'bob', 'carol', 'dave']);
  });

  it('a closed thread on an llm channel is summarised by the model through the provider: the thread in the prompt, provider and model annotated, its tokens accounted', async () => {
    behaviour = answers('Thread: alice asked who deploys tonight; bob does, at 22:00.');
    expect((await alice.post('/api/v1/channels', { name: 'llm-threads', summariser: 'llm', summaryThreshold: MANUAL_ONLY, description: 'Deploy desk' })).status).toBe(201);
    const requestsBefore = fake.requests.length;
    await alice.post('/api/v1/channels/llm-threads/messages', { type: 'QUERY', correlationId: 'deploy-1', content: 'who deploys tonight?' });
    await bob.post('/api/v1/channels/llm-threads/messages', { type: 'RESPONSE', correlationId: 'deploy-1', content: 'I do, at 22:00' });
    const summary = await waitFor(async () => {
      const res = await alice.get('/api/v1/channels/llm-threads/threads/deploy-1/summary');
      return res.status === 200 ? res.body : null;
    }, 'the thread summary');
    const calls = fake.requests.slice(requestsBefore);
    expect(calls).toHaveLength(1);
    expect(summary).toMatchObject({ text: 'Thread: alice asked who deploys tonight; bob does, at 22:00.', messageCount: 2, closedBy: 'RESPONSE' });
    expect(summary.annotations).toMatchObject({ tier: 'synthesised', provider: provider.name, model: calls[0].body.model, itemCount: '2' });
    const prompt = provider.promptOf(calls[0]);
    expect(prompt).toContain('Deploy desk');
    expect(prompt).toContain('who deploys tonight?');
    expect(prompt).toContain('I do, at 22:00');
    // Accounted as the channel's model use, with the tokens the provider reported (10 in, 5 out).
    const samples = parsePrometheusText((await t.admin.get('/metrics')).body);
    expect(sampleValue(samples, 'qhorus_model_calls_total', { strategy: 'llm', channel: 'llm-threads' })).toBe(1);
    expect(sampleValue(samples, 'qhorus_model_tokens_total', { strategy: 'llm', channel: 'llm-threads', kind: 'input' })).toBe(10);
    expect(sampleValue(samples, 'qhorus_model_tokens_total', { strategy: 'llm', channel: 'llm-threads', kind: 'output' })).toBe(5);
  });

  describe('when the model fails, no channel gets a blank summary, a stale state or loses its previous one', () => {
    const failures: [string, ModelBehaviour, RegExp][] = [
      ['answers HTTP 500', () => replyError(500, 'overloaded'), /HTTP 500 \w+: overloaded/],
      ['answers blank', () => replyText('   '), /blank answer/],
      ['never answers', () => replyHang(), new RegExp(`timed out after ${LLM_TIMEOUT_MS} ms`)],
    ];
    const openIds = (s: { annotations: Record<string, string> }) => JSON.parse(s.annotations.openThreads ?? '[]').map((o: { correlationId: string }) => o.correlationId);
    const post = (who: ApiClient, channel: string, body: Record<string, unknown>) => who.post(`/api/v1/channels/${channel}/messages`, body);

    beforeAll(async () => {
      behaviour = answers('The first synthesis.');
      await alice.post('/api/v1/channels', { name: 'tiered-down', summariser: 'tiered', summaryThreshold: MANUAL_ONLY });
      await alice.post('/api/v1/channels', { name: 'llm-down', summariser: 'llm', summaryThreshold: MANUAL_ONLY, description: 'Outage drill' });
      await summariseBatch('tiered-down', alice, 6, 'before the outage');
      await post(alice, 'llm-down', { type: 'QUERY', correlationId: 'q-0', content: 'who is on call?' });
      const first = await summariseBatch('llm-down', alice, 2, 'before the outage');
      expect(first.text).toBe('The first synthesis.');
      expect(openIds(first)).toEqual(['q-0']);
    });

    it.each(failures)('model %s: tiered falls back to its heuristic tier, annotated', async (_, failing, reason) => {
      behaviour = failing;
      const before = await getSummary(bob, 'tiered-down');
      const after = await summariseBatch('tiered-down', bob, 21, 'during the outage');
      expect(after.text.trim()).not.toBe('');
      expect(after.annotations.tier).toBe('grouped');
      expect(after.annotations.tierFallback).toMatch(/^large->medium: /);
      expect(after.annotations.tierFallback).toMatch(reason);
      expect(after.lastError).toBeNull();
      expect(after.coversThroughSeq).toBe(after.lastSeq);
      expect(participants(after)).toEqual([...new Set([...participants(before), 'bob'])].sort());
    });

    it.each(failures.map((f, i) => [...f, i] as const))(
      'model %s: an llm channel commits the true state with the heuristic report, degraded, and lastError says why',
      async (_, failing, reason, i) => {
        behaviour = failing;
        const before = await getSummary(carol, 'llm-down');
        const requestsBefore = fake.requests.length;
        // The request open since before answered, a new one opened.
        await post(carol, 'llm-down', { type: 'RESPONSE', correlationId: `q-${i}`, content: 'dave is' });
        await post(carol, 'llm-down', { type: 'QUERY', correlationId: `q-${i + 1}`, content: `question ${i + 1}` });
        await carol.post('/api/v1/channels/llm-down/summary/refresh');
        const degraded = await waitForSummary(carol, 'llm-down', (s) => s.version === before.version + 1, 'the degraded commit');
        expect(degraded.coversThroughSeq).toBe(degraded.lastSeq);
        expect(openIds(degraded)).toEqual([`q-${i + 1}`]);
        expect(degraded.text.trim()).not.toBe('');
        expect(degraded.text).toContain('Outage drill');
        expect(degraded.text).toContain(`q-${i + 1}`);
        expect(degraded.text).not.toBe('The first synthesis.');
        expect(degraded.annotations).toMatchObject({ tier: 'grouped', itemCount: '2', degraded: 'true' });
        expect(degraded.annotations.degradedReason).toMatch(reason);
        expect(degraded.lastError).toMatch(reason);
        expect(degraded.lastErrorAt).toEqual(expect.any(String));
        expect(degraded.degraded).toMatch(reason);
        // One call for the step, not retried: it committed. (Closing q-${i} may also summarise that thread.)
        const stepCalls = fake.requests.slice(requestsBefore).filter((r) => provider.promptOf(r).includes(`question ${i + 1}`));
        expect(stepCalls).toHaveLength(1);
        // A hanging call was aborted by the service, not left open.
        await stepCalls[0].closed;
      },
    );

    it('the degraded commit keeps the failure cooldown: posts past the threshold call no model until a refresh', async () => {
      behaviour = () => replyError(503, 'still down');
      await alice.post('/api/v1/channels', { name: 'llm-cool', summariser: 'llm', summaryThreshold: MODEL_MIN_THRESHOLD });
      const requestsBefore = fake.requests.length;
      await postMany(alice, 'llm-cool', MODEL_MIN_THRESHOLD, (i) => `first ${i}`);
      const degraded = await waitForSummary(alice, 'llm-cool', (s) => s.version === 1, 'the degraded commit');
      expect(degraded).toMatchObject({ annotations: { degraded: 'true' }, lastError: expect.stringMatching(/HTTP 503/) });
      expect(fake.requests.length).toBe(requestsBefore + 1);
      await postMany(alice, 'llm-cool', MODEL_MIN_THRESHOLD, (i) => `second ${i}`);
      const cooling = await waitForQuietSummary(alice, 'llm-cool', 1_500);
      expect(cooling).toMatchObject({ version: 1, pending: MODEL_MIN_THRESHOLD, lastError: degraded.lastError });
      expect(fake.requests.length).toBe(requestsBefore + 1);
    });

    it('recovers on the next trigger once the model answers again: lastError and degraded cleared, the text rewritten from the report', async () => {
      behaviour = answers('Recovered synthesis.');
      const before = await getSummary(carol, 'llm-down');
      expect(before.lastError).not.toBeNull();
      const requestsBefore = fake.requests.length;
      await post(dave, 'llm-down', { type: 'RESPONSE', correlationId: 'q-3', content: 'answered at last' });
      // A refresh may land while the last job is still being retired; ask until it takes.
      const recovered = await waitFor(async () => {
        await carol.post('/api/v1/channels/llm-down/summary/refresh');
        const s = await getSummary(carol, 'llm-down');
        return s.version > before.version ? s : null;
      }, 'the llm channel to recover');
      expect(recovered).toMatchObject({ text: 'Recovered synthesis.', lastError: null, lastErrorAt: null, degraded: null, pending: 0 });
      expect(recovered.annotations).toMatchObject({ tier: 'synthesised', provider: provider.name });
      expect(recovered.annotations).not.toHaveProperty('degraded');
      expect(recovered.annotations).not.toHaveProperty('degradedReason');
      expect(openIds(recovered)).toEqual([]);
      // The model was handed the report of the state as the current summary (not the text from before the outage).
      const prompt = provider.promptOf(fake.requests[requestsBefore]);
      expect(prompt).toContain('Current summary:\nChannel: Outage drill');
      expect(prompt).not.toContain('The first synthesis.');
    });

    it('never stored a blank text in any version of any channel', async () => {
      for (const channel of ['tiered-down', 'llm-down', 'llm-cool']) {
        const history = (await alice.get(`/api/v1/channels/${channel}/summary/history?limit=100`)).body;
        expect(history.length).toBeGreaterThan(0);
        for (const version of history) expect(version.text.trim()).not.toBe('');
      }
    });
  });
});

describe('a plain llm channel without an API key (none configured, or removed since)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('llm-no-key', { env: { QHORUS_LLM_PROVIDER: 'openai', QHORUS_MODEL_SUMMARISER_POLICY: 'anyone' } });
  });
  afterAll(() => t?.close());

  it('commits the state with the heuristic report, degraded, lastError naming the key settings; a text written before is replaced, not kept stale', async () => {
    const created = await t.admin.post('/api/v1/channels', { name: 'keyless', summariser: 'llm', summaryThreshold: MANUAL_ONLY });
    expect(created.body.warnings).toEqual(["Summariser 'llm' is unavailable: no API key is set for the openai provider (QHORUS_LLM_API_KEY or OPENAI_API_KEY)"]);
    await t.admin.post('/api/v1/channels/keyless/messages', { type: 'QUERY', correlationId: 'k-1', content: 'is the key back?' });
    // As if a model had written it before the key was removed.
    expect((await t.admin.put('/api/v1/channels/keyless/summary', { text: 'Model text: k-1 is open.' })).status).toBe(200);
    await t.admin.post('/api/v1/channels/keyless/messages', { type: 'RESPONSE', correlationId: 'k-1', content: 'not yet' });
    await t.admin.post('/api/v1/channels/keyless/summary/refresh');
    const s = await waitForSummary(t.admin, 'keyless', (x) => x.version === 2, 'the degraded commit');
    expect(s.text).not.toContain('Model text');
    expect(s.text.trim()).not.toBe('');
    expect(JSON.parse(s.annotations.openThreads)).toEqual([]);
    expect(s.annotations).toMatchObject({ tier: 'grouped', degraded: 'true' });
    expect(s.lastError).toBe('LLM summariser unavailable: no API key is set for the openai provider (QHORUS_LLM_API_KEY or OPENAI_API_KEY)');
    expect(s.degraded).toBe(s.lastError);
  });

  it('switched to a strategy that calls no model, its next version is not degraded: the slot field and the annotations go together', async () => {
    const before = await getSummary(t.admin, 'keyless');
    expect(before.degraded).not.toBeNull();
    expect((await t.admin.patch('/api/v1/channels/keyless', { summariser: 'heuristic' })).status).toBe(200);
    await t.admin.post('/api/v1/channels/keyless/messages', { type: 'STATUS', content: 'switched to the heuristic' });
    await t.admin.post('/api/v1/channels/keyless/summary/refresh');
    const s = await waitForSummary(t.admin, 'keyless', (x) => x.version === before.version + 1, 'the heuristic commit');
    expect(s.annotations).toMatchObject({ tier: 'grouped' });
    expect(s.annotations).not.toHaveProperty('degraded');
    expect(s).toMatchObject({ lastError: null, degraded: null, degradedAt: null });
  });
});

describe("a domain team's own summariser on a local OpenAI-compatible model, through the same port (docs/custom-summarisers.md)", () => {
  /** What the local server says answered (Ollama reports the tag it resolved). */
  const SERVED_MODEL = 'qwen3:8b-q4_K_M';
  let fake: FakeOpenAi;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi(() => replyText('Local model: one request open.', { model: SERVED_MODEL }));
    const ollama = new OpenAI({ baseURL: fake.baseURL, apiKey: 'ollama', maxRetries: 0 });
    const local = new LlmContentSummariser<Message>(new OpenAiModelClient(ollama), renderMessage, LlmSummaryMode.EDIT, { model: 'qwen3:8b', timeoutMs: 2_000 });
    // The deployment's own provider has no key: the team's model is used through its strategy alone.
    t = await startTestApp('llm-local-strategy', { summarisers: { 'local-llm': local }, env: { QHORUS_MODEL_CALLS_PER_HOUR: '1', QHORUS_JOB_ATTEMPTS: '1' } });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('is grounded on the channel state and annotated with its provider and the model the server reports, like the built-in tier', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'local', summariser: 'local-llm', summaryThreshold: MANUAL_ONLY, description: 'Edge fleet' })).status).toBe(201);
    await t.admin.post('/api/v1/channels/local/messages', { type: 'QUERY', correlationId: 'edge-1', content: 'is node 7 back?' });
    await t.admin.post('/api/v1/channels/local/summary/refresh');
    const s = await waitForSummary(t.admin, 'local', (x) => x.version === 1, 'the local model summary');
    expect(s.text).toBe('Local model: one request open.');
    expect(s.annotations).toMatchObject({ tier: 'synthesised', provider: 'openai', model: SERVED_MODEL });
    expect(JSON.parse(s.annotations.openThreads).map((o: { correlationId: string }) => o.correlationId)).toEqual(['edge-1']);
    expect(fake.requests[0].body.model).toBe('qwen3:8b');
    const prompt = openAiPrompt(fake.requests[0]);
    expect(prompt).toContain('Channel purpose: Edge fleet');
    expect(prompt).toMatch(/Open requests \(1, newest first\):\n- .*\(corr edge-1\)/);
  });

  it("spends the channel's model budget and is accounted like llm: past the budget no call is made, and the slot stays as it was with lastError saying why", async () => {
    const samples = parsePrometheusText((await t.admin.get('/metrics')).body);
    expect(sampleValue(samples, 'qhorus_model_calls_total', { strategy: 'local-llm', channel: 'local' })).toBe(1);
    expect(sampleValue(samples, 'qhorus_model_tokens_total', { strategy: 'local-llm', channel: 'local', kind: 'input' })).toBe(10);
    expect(sampleValue(samples, 'qhorus_model_tokens_total', { strategy: 'local-llm', channel: 'local', kind: 'output' })).toBe(5);
    const before = await getSummary(t.admin, 'local');
    await t.admin.post('/api/v1/channels/local/messages', { type: 'RESPONSE', correlationId: 'edge-1', content: 'node 7 is back' });
    await t.admin.post('/api/v1/channels/local/summary/refresh');
    const refused = await waitForSummary(t.admin, 'local', (x) => x.lastError !== null, 'the refused step');
    expect(fake.requests).toHaveLength(1);
    expect(refused).toMatchObject({ version: before.version, text: before.text, lastError: expect.stringMatching(/model budget spent: 1 of 1 model calls this hour \(QHORUS_MODEL_CALLS_PER_HOUR\)/) });
    expect(refused.degraded).toMatch(/QHORUS_MODEL_CALLS_PER_HOUR/);
  });
});
