import { OPEN_THREADS_CAP } from '@qhorus/blocks-channel-summary';
import { waitForSummary } from './support/channel-helpers';
import { ApiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const OPENED = 450;

/**
 * Past OPEN_THREADS_CAP the summary lists the newest open threads and counts the rest. That state
 * must stay true as threads close: listed + counted = the threads the index has open, whichever
 * were listed, and the list refills from the index. A tester found it went wrong (2026-12-02).
 */
describe('summary state past the open-thread cap agrees with the thread index', () => {
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('summary-open-threads-cap', { inProcessQueue: true });
    alice = await t.agent('alice');
    bob = await t.agent('bob');
    // No threshold trigger: each refresh below summarises exactly one step.
    expect((await alice.post('/api/v1/channels', { name: 'busy', summaryThreshold: 100_000 })).status).toBe(201);
  });
  afterAll(() => t?.close());

  const batch = async (as: ApiClient, messages: object[]) => expect((await as.post('/api/v1/channels/busy/messages/batch', { messages })).status).toBe(201);
  const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `c${from + i}`);
  const summarised = async () => {
    const { lastSeq } = (await alice.get('/api/v1/channels/busy')).body;
    expect((await alice.post('/api/v1/channels/busy/summary/refresh')).status).toBeLessThan(300);
    return waitForSummary(alice, 'busy', (s) => s.coversThroughSeq >= lastSeq, `the summary through seq ${lastSeq}`);
  };
  const openInIndex = async (): Promise<string[]> => {
    const open: string[] = [];
    for (let after = 0; ; ) {
      const page = (await alice.get(`/api/v1/channels/busy/threads?status=open&afterSeq=${after}&limit=200`)).body as { correlationId: string; openedSeq: number }[];
      if (page.length === 0) return open;
      open.push(...page.map((th) => th.correlationId));
      after = page[page.length - 1].openedSeq;
    }
  };
  const expectTrue = async (summary: { annotations: Record<string, string> }) => {
    const listed = (JSON.parse(summary.annotations.openThreads) as { correlationId: string }[]).map((o) => o.correlationId);
    const open = await openInIndex();
    expect({ listedAndCounted: listed.length + Number(summary.annotations.openThreadsDropped), listedButClosed: listed.filter((id) => !open.includes(id)) }).toEqual({
      listedAndCounted: open.length,
      listedButClosed: [],
    });
    return { listed, open };
  };

  it('stays true as dropped and listed threads close, and refills the list from the index', async () => {
    await batch(alice, ids(0, OPENED).map((correlationId) => ({ type: 'QUERY', content: `check ${correlationId}`, target: 'bob', correlationId })));
    const first = await summarised();
    expect(first.annotations.openThreadsDropped).toBe(String(OPENED - OPEN_THREADS_CAP));
    await expectTrue(first);

    await batch(bob, ids(0, 10).map((correlationId) => ({ type: 'RESPONSE', content: 'fine', correlationId }))); // all dropped from the list
    await expectTrue(await summarised());

    await batch(bob, ids(150, OPENED).map((correlationId) => ({ type: 'RESPONSE', content: 'fine', correlationId }))); // 100 dropped, the 200 listed
    const third = await expectTrue(await summarised());
    expect(third.open).toHaveLength(140);

    // The next step lists every thread still open (140 fit under the cap), none counted apart.
    await batch(alice, [{ type: 'STATUS', content: 'still here' }]);
    const fourth = await summarised();
    const { listed, open } = await expectTrue(fourth);
    expect(listed.sort()).toEqual(open.sort());
    expect(fourth.annotations.openThreadsDropped).toBe('0');
    expect(fourth.text).not.toContain('no longer tracked');
  });
});
