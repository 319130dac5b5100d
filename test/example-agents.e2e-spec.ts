import Anthropic from '@anthropic-ai/sdk';
import { QhorusClient } from '@qhorus/client';
import { runPlanner } from '../examples/agents/planner';
import { DEFAULT_EXAMPLE_MODEL, exampleSettings, ExampleSettingsError, runExample } from '../examples/agents/run-example';
import { runWorker } from '../examples/agents/worker';
import { FakeAnthropic, replyError, startFakeAnthropic } from '../libs/blocks-summarisation/test/fake-anthropic-server';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const QUESTION = 'Is the orders migration reviewed and the integration suite green?';
const ANSWER = 'Yes: the migration was reviewed this morning and the suite is green.';
const CONCLUSION = 'Release 42 ships on Friday. The migration is reviewed and the suite is green.';
/** Past this the agents are stopped, so a wait that never ends fails with the step it was on (under jest's timeout). */
const AGENTS_DEADLINE_MS = 60_000;

describe('examples/agents: a planner and a worker coordinate through Qhorus with the Anthropic SDK', () => {
  let t: TestApp;
  let llm: FakeAnthropic;

  beforeAll(async () => {
    t = await startTestApp('example-agents', { inProcessQueue: true });
    // The local Messages API answers by who is asking (the system prompt says).
    llm = await startFakeAnthropic((req) => {
      const system = String(req.body?.system ?? '');
      if (system.includes('the worker')) return ANSWER;
      return system.includes('Conclude') ? CONCLUSION : QUESTION;
    });
  });
  afterAll(async () => {
    await llm?.close();
    await t?.close();
  });

  it('ask, wait, answer, read the summary, close the thread — both finish', async () => {
    const admin = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN });
    const planner = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('planner')).token });
    const worker = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('worker')).token });
    await planner.createChannel({ name: 'release-42', description: 'Ship release 42' });
    await planner.postMessage('release-42', { type: 'STATUS', content: 'Release 42 is planned for Friday', topic: 'plan' });
    const anthropic = new Anthropic({ apiKey: 'test-key', baseURL: llm.baseURL, maxRetries: 0 });
    const signal = AbortSignal.timeout(AGENTS_DEADLINE_MS);

    const [planned, worked] = await Promise.all([
      runPlanner({ client: planner, anthropic, model: 'claude-test', channel: 'release-42', worker: 'worker', goal: 'decide whether release 42 ships on Friday', signal }),
      runWorker({ client: worker, anthropic, model: 'claude-test', channel: 'release-42', name: 'worker', signal }),
    ]);

    expect(planned).toMatchObject({ question: QUESTION, answer: ANSWER, conclusion: CONCLUSION });
    const messages = await admin.listMessages('release-42');
    expect(messages.map((m) => [m.sender, m.type, m.content])).toEqual([
      ['planner', 'STATUS', 'Release 42 is planned for Friday'],
      ['planner', 'QUERY', QUESTION],
      ['worker', 'RESPONSE', ANSWER],
      ['planner', 'DONE', CONCLUSION],
    ]);
    expect(new Set(messages.slice(1).map((m) => m.correlationId)).size).toBe(1);
    expect(messages[1].target).toBe('worker');
    expect(worked.closedBy).toEqual(messages[3]);

    // The planner read a summary that covers the answer, and the heuristic recorded the closed query.
    expect(planned.summary.coversThroughSeq).toBeGreaterThanOrEqual(3);
    expect(planned.summary.text).toContain('planner');

    // Each model call got the channel's context from Qhorus, through the SDK's own request.
    const calls = llm.requests.slice(-3).map((r) => ({ system: String(r.body.system), said: JSON.stringify(r.body.messages) }));
    expect(calls).toHaveLength(3);
    const workerCall = calls.find((c) => c.system.includes('the worker'))!;
    expect(workerCall.said).toContain(QUESTION);
    const conclusionCall = calls.find((c) => c.system.includes('Conclude'))!;
    expect(conclusionCall.said).toContain('[Summary of messages 1–');
    expect(conclusionCall.said).toContain(ANSWER);
  });

  it('a worker started after the question was asked still answers it (from its inbox)', async () => {
    const admin = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN });
    const planner = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('late-planner')).token });
    const worker = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('late-worker')).token });
    await planner.createChannel({ name: 'release-43', description: 'Ship release 43' });
    const anthropic = new Anthropic({ apiKey: 'test-key', baseURL: llm.baseURL, maxRetries: 0 });
    const signal = AbortSignal.timeout(AGENTS_DEADLINE_MS);

    const planning = runPlanner({ client: planner, anthropic, model: 'claude-test', channel: 'release-43', worker: 'late-worker', goal: 'decide whether release 43 ships', signal });
    const [asked] = await admin.waitForMessages('release-43', { afterSeq: 0, waitMs: 20_000, type: ['QUERY'] });
    expect(asked).toMatchObject({ sender: 'late-planner', target: 'late-worker' });
    const worked = await runWorker({ client: worker, anthropic, model: 'claude-test', channel: 'release-43', name: 'late-worker', signal });
    const planned = await planning;

    expect(worked.query.seq).toBe(asked.seq);
    expect(planned.answer).toBe(ANSWER);
    expect(worked.closedBy).toMatchObject({ sender: 'late-planner', type: 'DONE', correlationId: asked.correlationId });
  });

  describe('the example as a user runs it (main.ts)', () => {
    const exampleAgents = async () => (await new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN }).listAgents()).map((a) => a.name).filter((n) => /^(planner|worker)-/.test(n));

    it('without a key (or an admin token) says which variable to set, before creating anything', async () => {
      const before = await exampleAgents();
      expect(() => exampleSettings({ QHORUS_URL: t.baseUrl, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN })).toThrow(
        new ExampleSettingsError('Nothing was created. Missing an Anthropic API key: set ANTHROPIC_API_KEY (or QHORUS_LLM_API_KEY).'),
      );
      expect(() => exampleSettings({ ANTHROPIC_API_KEY: 'k' })).toThrow(/Missing the admin token that registers the two agents: set QHORUS_ADMIN_TOKEN/);
      expect(exampleSettings({ QHORUS_ADMIN_TOKEN: 'a', QHORUS_LLM_API_KEY: 'k' }).apiKey).toBe('k');
      expect(await exampleAgents()).toEqual(before);
    });

    it('runs with a current default model, then revokes the agents it registered', async () => {
      const warned = jest.spyOn(console, 'warn');
      try {
        const settings = exampleSettings({ QHORUS_URL: t.baseUrl, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: llm.baseURL });
        const requests = llm.requests.length;
        const run = await runExample(settings, AbortSignal.timeout(AGENTS_DEADLINE_MS));
        expect(run.outcome).toMatchObject({ question: QUESTION, answer: ANSWER, conclusion: CONCLUSION });
        const models = llm.requests.slice(requests).map((r) => r.body.model);
        expect(models).toEqual([DEFAULT_EXAMPLE_MODEL, DEFAULT_EXAMPLE_MODEL, DEFAULT_EXAMPLE_MODEL]);
        // The SDK says nothing about it: not in its deprecation table.
        expect(warned.mock.calls.flat().join('\n')).not.toMatch(/deprecated/);
        expect(run.agents).toHaveLength(2);
        expect(await exampleAgents()).toEqual([]);
        // The channel it created is deleted again (this service has DELETE /channels/{name}).
        expect(run.channelDeleted).toBe(true);
        expect((await new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN }).listChannels()).map((c) => c.name)).not.toContain(run.channel);
      } finally {
        warned.mockRestore();
      }
    });

    it('cleans up when the model fails too', async () => {
      const failing = await startFakeAnthropic(() => replyError(401, 'invalid x-api-key', 'authentication_error'));
      try {
        const settings = exampleSettings({ QHORUS_URL: t.baseUrl, QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN, ANTHROPIC_API_KEY: 'wrong', ANTHROPIC_BASE_URL: failing.baseURL });
        const channels = async () => (await new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN }).listChannels()).map((c) => c.name).filter((n) => n.startsWith('plan-'));
        const before = await channels();
        await expect(runExample(settings, AbortSignal.timeout(AGENTS_DEADLINE_MS))).rejects.toThrow(/invalid x-api-key/);
        expect(await exampleAgents()).toEqual([]);
        expect(await channels()).toEqual(before);
      } finally {
        await failing.close();
      }
    });
  });
});
