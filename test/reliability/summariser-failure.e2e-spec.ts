import { Message, SummaryResult } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { getSummary, postMany, waitForSummary } from '../support/channel-helpers';
import { ApiClient, waitFor } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const ATTEMPTS = 4;
const BACKOFF_MS = 300;
const SWEEP_INTERVAL_MS = 500;
/** How long the test watches for a (wrong) extra attempt after the job gave up. */
const QUIET_WATCH_MS = 2_000;

/** Throws while `failing`, recording when it was called. */
class FlakySummariser implements ContentSummariser<Message> {
  failing = true;
  readonly calls: number[] = [];
  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    this.calls.push(Date.now());
    if (this.failing) throw new Error('the summariser broke');
    return { text: `${items.length} more messages`, annotations: { ...previous?.annotations, flaky: 'recovered' } };
  }
}

/**
 * A summariser that throws (the hanging one and a failing model are covered by
 * test/summarisers.e2e-spec.ts and test/llm-summaries.e2e-spec.ts): the slot is untouched,
 * lastError says why, attempts back off exponentially, then the channel is left alone until
 * something changes; it recovers on the next trigger.
 */
describe('a summariser that throws: slot untouched, lastError set, retries back off', () => {
  let t: TestApp;
  let alice: ApiClient;
  const flaky = new FlakySummariser();

  beforeAll(async () => {
    t = await startTestApp('flakysummariser', {
      summarisers: { flaky },
      env: { QHORUS_JOB_ATTEMPTS: String(ATTEMPTS), QHORUS_JOB_BACKOFF_MS: String(BACKOFF_MS), QHORUS_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS) },
    });
    alice = await t.agent('alice');
  });
  afterAll(() => t?.close());

  it('keeps the previous summary, records the error, and spaces the attempts by a doubling backoff', async () => {
    await alice.post('/api/v1/channels', { name: 'fragile', summariser: 'flaky', summaryThreshold: 5 });
    flaky.failing = false;
    await postMany(alice, 'fragile', 5);
    const good = await waitForSummary(alice, 'fragile', (s) => s.version === 1, 'the first summary');
    flaky.failing = true;
    flaky.calls.length = 0;

    await postMany(alice, 'fragile', 5);
    await waitFor(async () => flaky.calls.length >= ATTEMPTS, `${ATTEMPTS} attempts`);
    const failed = await waitForSummary(alice, 'fragile', (s) => s.lastError !== null, 'the error to be recorded');
    expect(failed).toMatchObject({ text: good.text, annotations: good.annotations, version: 1, coversThroughSeq: 5, pending: 5 });
    expect(failed.lastError).toMatch(/the summariser broke/);

    const gaps = flaky.calls.slice(1, ATTEMPTS).map((at, i) => at - flaky.calls[i]);
    gaps.forEach((gap, i) => expect({ attempt: i + 2, gap: gap >= BACKOFF_MS * 2 ** i }).toEqual({ attempt: i + 2, gap: true }));

    // Given up: the sweep leaves a channel that just failed alone for a while (no hammering).
    await new Promise((r) => setTimeout(r, QUIET_WATCH_MS));
    expect(flaky.calls.length).toBe(ATTEMPTS);
    expect(await getSummary(alice, 'fragile')).toMatchObject({ version: 1, coversThroughSeq: 5 });
  });

  it('recovers on the next trigger once the summariser works again, covering everything, and clears lastError', async () => {
    flaky.failing = false;
    expect((await alice.post('/api/v1/channels/fragile/summary/refresh')).status).toBe(202);
    const recovered = await waitForSummary(alice, 'fragile', (s) => s.coversThroughSeq === 10, 'the recovered summary');
    expect(recovered).toMatchObject({ version: 2, pending: 0, lastError: null, text: '5 more messages' });
    expect(recovered.annotations.flaky).toBe('recovered');
  });
});
