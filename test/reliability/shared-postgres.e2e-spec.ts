import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Message, SummaryResult } from '@qhorus/api';
import { ContentSummariser } from '@qhorus/blocks-summarisation';
import { ChannelJobLock } from '../../apps/channel-service/src/summary/channel-job-lock';
import { getSummary, waitForQuietSummary } from '../support/channel-helpers';
import { ApiClient, waitFor } from '../support/http';
import { SseClient } from '../support/sse-client';
import { startAnotherInstance, startTestApp, TestApp } from '../support/test-app';
import { expectHistoryCoversExactlyOnce, summaryHistory } from './summary-history';

const CHANNELS = 4;
const POSTS_PER_CHANNEL = 40;
/** Each summariser call takes this long, so two jobs on one channel would overlap. */
const SUMMARISE_MS = 60;
/** Over Postgres' 8,000-byte NOTIFY payload: such a message crosses instances by reference. */
const LARGE_CONTENT_BYTES = 20_000;

/** Counts, per channel, how many calls run at once (one tally shared by both instances). */
class OverlapTally {
  readonly running = new Map<string, number>();
  readonly most = new Map<string, number>();
  readonly callsBy = new Map<string, number>();
  /** Per instance: job lock attempts, and how many found the job running on the other instance. */
  readonly lockTries = new Map<string, { tries: number; busy: number }>();
}

/** Counts an instance's attempts at the cross-instance job lock (the real lock still decides). */
function countLockAttempts(lock: ChannelJobLock, tally: OverlapTally, instance: string): void {
  const whileHeld = lock.whileHeld.bind(lock);
  const counts = { tries: 0, busy: 0 };
  tally.lockTries.set(instance, counts);
  lock.whileHeld = async (key, work) => {
    counts.tries++;
    const held = await whileHeld(key, work);
    if (held.busy) counts.busy++;
    return held;
  };
}

class OverlapCountingSummariser implements ContentSummariser<Message> {
  constructor(
    private readonly tally: OverlapTally,
    private readonly instance: string,
  ) {}

  async summarise(items: readonly Message[], previous?: SummaryResult | null): Promise<SummaryResult> {
    const channel = items[0].channel;
    const now = (this.tally.running.get(channel) ?? 0) + 1;
    this.tally.running.set(channel, now);
    this.tally.most.set(channel, Math.max(now, this.tally.most.get(channel) ?? 0));
    this.tally.callsBy.set(this.instance, (this.tally.callsBy.get(this.instance) ?? 0) + 1);
    try {
      await new Promise((r) => setTimeout(r, SUMMARISE_MS));
      return { text: `${items.length} messages through ${items[items.length - 1].seq}`, annotations: { ...previous?.annotations } };
    } finally {
      this.tally.running.set(channel, this.tally.running.get(channel)! - 1);
    }
  }
}

/**
 * Issue 14 item 2: two instances on one Postgres and NO Redis keep the guarantees of one: at most
 * one summary job per channel at a time (a per-channel advisory lock around each job), every
 * message summarised once, and events cross instances (LISTEN/NOTIFY).
 */
describe('shared Postgres without Redis: two instances keep every guarantee', () => {
  const tally = new OverlapTally();
  let t: TestApp;
  let second: NestFastifyApplication;
  let onA: ApiClient, onB: ApiClient;
  const streams: SseClient[] = [];

  beforeAll(async () => {
    t = await startTestApp('sharedpg', { inProcessQueue: true, summarisers: { overlap: new OverlapCountingSummariser(tally, 'A') } });
    const b = await startAnotherInstance(t, { inProcessQueue: true, summarisers: { overlap: new OverlapCountingSummariser(tally, 'B') } });
    second = b.app;
    countLockAttempts(t.app.get(ChannelJobLock), tally, 'A');
    countLockAttempts(second.get(ChannelJobLock), tally, 'B');
    onA = await t.agent('alice');
    onB = new ApiClient(b.baseUrl, onA.token);
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await second?.close();
    await t?.close();
  });

  it('never runs two jobs for one channel at once, across instances, and summarises every message once', async () => {
    const names = Array.from({ length: CHANNELS }, (_, i) => `shared-${i}`);
    for (const name of names) expect((await onA.post('/api/v1/channels', { name, summariser: 'overlap', summaryThreshold: 3 })).status).toBe(201);

    // Posts alternate between the instances, and both ask for refreshes all along: every trigger
    // fires on both sides, so without a cross-instance lock their queues would run a channel together.
    await Promise.all(
      names.map(async (name) => {
        for (let i = 0; i < POSTS_PER_CHANNEL; i++) {
          const via = i % 2 === 0 ? onA : onB;
          expect((await via.post(`/api/v1/channels/${name}/messages`, { type: 'STATUS', content: `step ${i}` })).status).toBe(201);
          if (i % 5 === 4) await Promise.all([onA.post(`/api/v1/channels/${name}/summary/refresh`), onB.post(`/api/v1/channels/${name}/summary/refresh`)]);
        }
      }),
    );
    for (const name of names) {
      await Promise.all([onA.post(`/api/v1/channels/${name}/summary/refresh`), onB.post(`/api/v1/channels/${name}/summary/refresh`)]);
      await waitFor(async () => (await getSummary(onA, name)).coversThroughSeq === POSTS_PER_CHANNEL, `${name} to be covered`);
      const quiet = await waitForQuietSummary(onA, name);
      expect(quiet).toMatchObject({ coversThroughSeq: POSTS_PER_CHANNEL, lastError: null });
      expectHistoryCoversExactlyOnce(await summaryHistory(onA, name), POSTS_PER_CHANNEL);
    }
    expect(Object.fromEntries(tally.most)).toEqual(Object.fromEntries(names.map((n) => [n, 1])));
    // Both instances went for the lock, and it was contended, not idle: some attempt found the
    // channel's job running on the other instance, or both ran jobs. (Which instance runs how many
    // is scheduling: under load one may win every time, its job re-checking the backlog at its end.)
    const [a, b] = [tally.lockTries.get('A')!, tally.lockTries.get('B')!];
    expect(a.tries).toBeGreaterThan(0);
    expect(b.tries).toBeGreaterThan(0);
    expect(a.busy + b.busy > 0 || ((tally.callsBy.get('A') ?? 0) > 0 && (tally.callsBy.get('B') ?? 0) > 0)).toBe(true);
  });

  it('delivers to a stream on instance B what was posted on instance A, large messages included', async () => {
    await onA.post('/api/v1/channels', { name: 'crossing', summaryThreshold: 1000 });
    const opened = await SseClient.open(onB.baseUrl, '/api/v1/channels/crossing/events', onB.token);
    expect(opened.status).toBe(200);
    const s = opened.stream!;
    streams.push(s);
    await waitFor(async () => s.comments.some((c) => c.startsWith('streaming channel')), 'the stream to open');

    const large = 'x'.repeat(LARGE_CONTENT_BYTES);
    for (const content of ['first', large, 'third']) expect((await onA.post('/api/v1/channels/crossing/messages', { content })).status).toBe(201);
    await waitFor(async () => s.named('message.posted').length === 3, 'three events on the other instance');
    expect(s.named('message.posted').map((m) => [m.seq, m.content.length])).toEqual([
      [1, 'first'.length],
      [2, LARGE_CONTENT_BYTES],
      [3, 'third'.length],
    ]);

    // And a summary committed on whichever instance reaches the stream too.
    expect((await onA.post('/api/v1/channels/crossing/summary/refresh')).status).toBe(202);
    const updated = await s.next('summary.updated');
    expect(updated.data).toMatchObject({ channel: 'crossing', coversThroughSeq: 3 });
  });
});
