import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { FakeAnthropic, startFakeAnthropic } from '../libs/blocks-summarisation/test/fake-anthropic-server';
import { getSummary, postMany, waitForSummary } from './support/channel-helpers';
import { startTestApp, TestApp } from './support/test-app';
import { logLines } from './support/log-lines';

/** Far above any backlog here: summaries run only when the test asks (refresh). */
const MANUAL_ONLY = 10_000;
const DEPRECATED_MODEL = 'claude-sonnet-4-5';
const API_KEY = 'sk-ant-api03-never-in-a-log';

/**
 * Issue 31: a model the SDK reports as deprecated is said once in the service's structured log
 * (pino), not on stderr at every call.
 */
describe("the SDK's deprecation notice reaches the log once per model", () => {
  const { entries: lines, stream: logs } = logLines();
  let fake: FakeAnthropic;
  let t: TestApp;
  let printed: jest.SpyInstance;

  beforeAll(async () => {
    // nestjs-pino's process-wide logger is made by the first app of the process: start afresh.
    __resetOutOfContextForTests();
    printed = jest.spyOn(console, 'warn');
    fake = await startFakeAnthropic(() => 'A summary.');
    t = await startTestApp('model-provider-logs', {
      inProcessQueue: true,
      logDestination: logs,
      env: { LOG_LEVEL: 'warn', ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: fake.baseURL, QHORUS_LLM_MODEL: DEPRECATED_MODEL, QHORUS_MODEL_SUMMARISER_POLICY: 'anyone' },
    });
  });
  afterAll(async () => {
    printed?.mockRestore();
    await t?.close();
    await fake?.close();
  });

  it('three model calls with a deprecated model: one warn line naming the provider and model, nothing on the console, no key', async () => {
    expect((await t.admin.post('/api/v1/channels', { name: 'old-model', summariser: 'llm', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      const before = await getSummary(t.admin, 'old-model');
      await postMany(t.admin, 'old-model', 2, (k) => `step ${i}.${k}`);
      await t.admin.post('/api/v1/channels/old-model/summary/refresh');
      await waitForSummary(t.admin, 'old-model', (s) => s.version === before.version + 1, `version ${before.version + 1}`);
    }
    expect(fake.requests.map((r) => r.body.model)).toEqual([DEPRECATED_MODEL, DEPRECATED_MODEL, DEPRECATED_MODEL]);
    const notices = lines.filter((l) => l.context === 'ModelProvider');
    expect(notices).toEqual([
      expect.objectContaining({ level: 40, provider: 'anthropic', model: DEPRECATED_MODEL, warning: expect.stringMatching(new RegExp(`^The model '${DEPRECATED_MODEL}' is deprecated and will reach end-of-life on `)), msg: 'model SDK warning' }),
    ]);
    expect(printed.mock.calls.flat().join('\n')).not.toMatch(/deprecated/);
    expect(JSON.stringify(lines)).not.toContain(API_KEY);
  });
});
