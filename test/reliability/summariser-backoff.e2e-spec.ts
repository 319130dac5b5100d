import Anthropic from '@anthropic-ai/sdk';
import { Message, SummaryResult } from '@qhorus/api';
import { renderMessage } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, LlmContentSummariser, LlmSummaryMode, SummariseOptions } from '@qhorus/blocks-summarisation';
import { FakeAnthropic, replyHang, startFakeAnthropic } from '../../libs/blocks-summarisation/test/fake-anthropic-server';
import { getSummary, postMany, waitForSummary } from '../support/channel-helpers';
import { ApiClient, waitFor } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const ATTEMPTS = 2;
const BACKOFF_MS = 100;
/** The failure backoff is 12 sweep intervals: 24 s here, far longer than the watch below. */
const SWEEP_INTERVAL_MS = 2_000;
/** How long the test watches for a (wrong) extra call: a few sweeps and time triggers. */
const QUIET_WATCH_MS = 2 * SWEEP_INTERVAL_MS + 500;
const POSTS_WHILE_BACKING_OFF = 10;

/** Throws while `failing`, counting its calls. */
class FailingSummariser implements ContentSummariser<Message> {
  failing = true;
  calls = 0;
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    this.calls++;
    if (this.failing) throw new Error('the model is down');
    return { text: `${items.length} messages`, annotations: { ...previous?.annotations } };
  }
}

const quietly = () => new Promise((r) => setTimeout(r, QUIET_WATCH_MS));

describe.each([
  ['BullMQ on Redis', false],
  ['the in-process queue', true],
])('failure backoff on every trigger path (%s)', (_driver, inProcessQueue) => {
  let t: TestApp;
  let alice: ApiClient;
  const failing = new FailingSummariser();

  beforeAll(async () => {
    t = await startTestApp('summariserbackoff', {
      inProcessQueue,
      summarisers: { failing },
      env: { QHORUS_JOB_ATTEMPTS: String(ATTEMPTS), QHORUS_JOB_BACKOFF_MS: String(BACKOFF_MS), QHORUS_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS) },
    });
    alice = await t.agent('alice');
  });
  afterAll(() => t?.close());

  it('after a failed job, no post, kept trigger, time trigger, sweep or reconfiguration calls the summariser again', async () => {
    // Threshold 1: every post crosses it; the time trigger is due every second as well.
    expect((await alice.post('/api/v1/channels', { name: 'down', summariser: 'failing', summaryThreshold: 1, updateAfterSeconds: 1 })).status).toBe(201);
    await postMany(alice, 'down', 1);
    await waitFor(async () => failing.calls >= ATTEMPTS, 'the job to use its attempts');
    await waitForSummary(alice, 'down', (s) => s.lastError !== null, 'the error to be recorded');

    await postMany(alice, 'down', POSTS_WHILE_BACKING_OFF);
    expect((await alice.patch('/api/v1/channels/down', { summaryThreshold: 2 })).status).toBe(200);
    await quietly();
    expect(failing.calls).toBe(ATTEMPTS);
    expect(await getSummary(alice, 'down')).toMatchObject({ version: 0, pending: 1 + POSTS_WHILE_BACKING_OFF, lastError: expect.stringMatching(/model is down/) });
  });

  it('a manual refresh (an explicit request) runs one job past the backoff; then the backoff holds again', async () => {
    expect((await alice.post('/api/v1/channels/down/summary/refresh')).status).toBe(202);
    await waitFor(async () => failing.calls >= 2 * ATTEMPTS, 'the refreshed job to use its attempts');
    await postMany(alice, 'down', 3);
    await quietly();
    expect(failing.calls).toBe(2 * ATTEMPTS);

    failing.failing = false;
    expect((await alice.post('/api/v1/channels/down/summary/refresh')).status).toBe(202);
    const recovered = await waitForSummary(alice, 'down', (s) => s.version >= 1 && s.pending === 0, 'the recovered summary');
    expect(recovered.lastError).toBeNull();
  });
});

/** The job's timeout aborts the call it gives up on, and waits for it to end before the retry. */
describe('the job-level timeout aborts the summariser; no retry overlaps the call it gave up on', () => {
  const JOB_TIMEOUT_MS = 500;
  const ABORT_GRACE_MS = 10_000;
  /** The signal-ignoring summariser's first call outlasts the job's timeout by this much. */
  const IGNORING_CALL_MS = 3 * JOB_TIMEOUT_MS;

  let t: TestApp;
  let alice: ApiClient;
  let fake: FakeAnthropic;
  const received: number[] = [];
  const closed: number[] = [];

  /** Ignores its signal: the first call sleeps past the job's timeout, later ones answer at once. */
  class IgnoringSummariser implements ContentSummariser<Message> {
    running = 0;
    maxRunning = 0;
    readonly starts: number[] = [];
    readonly ends: number[] = [];
    readonly abortedAtEnd: boolean[] = [];
    async summarise(items: readonly Message[], _previous?: SummaryResult | null, options?: SummariseOptions): Promise<SummaryResult> {
      this.running++;
      this.maxRunning = Math.max(this.maxRunning, this.running);
      this.starts.push(Date.now());
      try {
        if (this.starts.length === 1) await new Promise((r) => setTimeout(r, IGNORING_CALL_MS));
        return { text: `${items.length} messages`, annotations: {} };
      } finally {
        this.abortedAtEnd.push(options?.signal?.aborted ?? false);
        this.ends.push(Date.now());
        this.running--;
      }
    }
  }
  const ignoring = new IgnoringSummariser();

  beforeAll(async () => {
    fake = await startFakeAnthropic(async (request, index) => {
      received.push(Date.now());
      void request.closed.then(() => (closed[index] = Date.now()));
      return index === 0 ? replyHang() : 'The model answered the retry.';
    });
    // The model's own deadline is far away: only the job's signal can end the first request.
    const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 });
    const patientLlm = new LlmContentSummariser(client, renderMessage, LlmSummaryMode.EDIT, { model: 'fake-model', timeoutMs: 60_000 });
    t = await startTestApp('summaryabort', {
      summarisers: { 'patient-llm': patientLlm, ignoring },
      env: {
        QHORUS_SUMMARY_TIMEOUT_MS: String(JOB_TIMEOUT_MS),
        QHORUS_SUMMARY_ABORT_GRACE_MS: String(ABORT_GRACE_MS),
        QHORUS_JOB_ATTEMPTS: String(ATTEMPTS),
        QHORUS_JOB_BACKOFF_MS: String(BACKOFF_MS),
      },
    });
    alice = await t.agent('alice');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('the LLM tier passes the signal to the SDK: the Messages API sees the request aborted before the retry arrives', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'slow-model', summariser: 'patient-llm', summaryThreshold: 3 })).status).toBe(201);
    await postMany(alice, 'slow-model', 3);
    const summary = await waitForSummary(alice, 'slow-model', (s) => s.version === 1, 'the retried summary');
    expect(summary).toMatchObject({ text: 'The model answered the retry.', coversThroughSeq: 3, lastError: null });
    expect(fake.requests).toHaveLength(2);
    await fake.requests[0].closed; // settled while the server is still up: the client aborted it
    expect(closed[0]).toBeLessThanOrEqual(received[1]);
  });

  it('a summariser that ignores the signal: the retry starts only after the abandoned call ended', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'stubborn', summariser: 'ignoring', summaryThreshold: 3 })).status).toBe(201);
    await postMany(alice, 'stubborn', 3);
    await waitForSummary(alice, 'stubborn', (s) => s.version === 1 && s.coversThroughSeq === 3, 'the retried summary');
    expect(ignoring.starts).toHaveLength(2);
    expect(ignoring.maxRunning).toBe(1);
    expect(ignoring.abortedAtEnd).toEqual([true, false]);
    expect(ignoring.starts[1]).toBeGreaterThanOrEqual(ignoring.ends[0]);
  });
});
