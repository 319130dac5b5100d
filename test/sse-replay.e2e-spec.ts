import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiClient, waitFor } from './support/http';
import { SseClient } from './support/sse-client';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

const BURST = 500;
/** Posts in flight at once: their events reach a stream out of seq order, which it must put right. */
const IN_FLIGHT = 8;

/** Posts `count` messages with `inFlight` requests at a time; calls `onPosted` after each. */
async function burst(client: ApiClient, channel: string, count: number, inFlight: number, onPosted: (n: number) => void = () => {}): Promise<void> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++;
        const res = await client.post(`/api/v1/channels/${channel}/messages`, { content: `burst ${i}` });
        if (res.status !== 201) throw new Error(`post ${i}: ${res.status}`);
        onPosted(++done);
      }
    }),
  );
}

describe('SSE replay: event ids, Last-Event-ID and ?afterSeq=, across instances', () => {
  let t: TestApp;
  let alice: ApiClient;
  let second: NestFastifyApplication;
  let secondUrl: string;
  const streams: SseClient[] = [];

  async function stream(baseUrl: string, channel: string, query = '', headers: Record<string, string> = {}): Promise<SseClient> {
    const opened = await SseClient.open(baseUrl, `/api/v1/channels/${channel}/events${query}`, alice.token, headers);
    expect(opened.status).toBe(200);
    const s = opened.stream!;
    streams.push(s);
    await waitFor(async () => s.comments.some((c) => c.startsWith('streaming channel')), 'the stream to open');
    return s;
  }
  const messageSeqs = (s: SseClient) => s.events.filter((e) => e.event === 'message.posted').map((e) => e.data.seq);

  beforeAll(async () => {
    t = await startTestApp('sse-replay');
    alice = await t.agent('alice');
    ({ app: second, baseUrl: secondUrl } = await startAnotherInstance(t));
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await second?.close();
    await t?.close();
  });

  it('a burst of 500 posts, the stream cut in the middle, resumed with Last-Event-ID on the other instance: every seq exactly once, in order', async () => {
    await alice.post('/api/v1/channels', { name: 'burst', summaryThreshold: 50 });
    const first = await stream(t.baseUrl, 'burst');
    let resumed: Promise<SseClient> | undefined;
    let cutAfter: string | undefined;
    const posting = burst(alice, 'burst', BURST, IN_FLIGHT, (n) => {
      // Cut mid-burst, while posts continue; a summary id is as good a resume point as a seq.
      if (n === BURST / 2 && !resumed) {
        cutAfter = first.lastEventId;
        first.close();
        resumed = stream(secondUrl, 'burst', '', { 'last-event-id': cutAfter! });
      }
    });
    await posting;
    const second = await resumed!;
    await waitFor(async () => messageSeqs(second).includes(BURST), 'the resumed stream to reach the last seq');

    const beforeCut = messageSeqs(first);
    const afterCut = messageSeqs(second);
    expect(beforeCut.length).toBeGreaterThan(0);
    expect([...beforeCut, ...afterCut]).toEqual(Array.from({ length: BURST }, (_, i) => i + 1));
    // Every message frame carries its seq as id; summaries carry <seq>s<version>, never repeated.
    for (const s of [first, second]) {
      for (const e of s.events) {
        if (e.event === 'message.posted') expect(e.id).toBe(String(e.data.seq));
        else expect(e.id).toMatch(new RegExp(`^\\d+s${e.data.version}$`));
      }
    }
    // Within a stream a summary version is sent once. (Resuming from a message id, which names no
    // version, sends the current summary again: the client cannot have said which one it has.)
    for (const s of [first, second]) {
      const versions = s.named('summary.updated').map((x) => x.version);
      expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    }
    expect(cutAfter).toBeDefined();
  });

  it('replays with ?afterSeq=, then the current summary, then goes live; a summary id resumes without resending that summary', async () => {
    await alice.post('/api/v1/channels', { name: 'catch-up', summaryThreshold: 5 });
    for (let i = 1; i <= 6; i++) await alice.post('/api/v1/channels/catch-up/messages', { content: `m${i}` });
    const summary = await waitFor(async () => {
      const s = (await alice.get('/api/v1/channels/catch-up/summary')).body;
      return s.version >= 1 ? s : null;
    }, 'the first summary');

    const fromThree = await stream(secondUrl, 'catch-up', '?afterSeq=3');
    await waitFor(async () => fromThree.named('summary.updated').length === 1, 'the replayed summary');
    await alice.post('/api/v1/channels/catch-up/messages', { content: 'live' });
    await fromThree.next('message.posted', (m) => m.content === 'live');
    expect(fromThree.events.slice(0, 4).map((e) => [e.event, e.id])).toEqual([
      ['message.posted', '4'],
      ['message.posted', '5'],
      ['message.posted', '6'],
      ['summary.updated', `6s${summary.version}`],
    ]);
    expect(messageSeqs(fromThree)).toEqual([4, 5, 6, 7]);

    const resumed = await stream(t.baseUrl, 'catch-up', '?afterSeq=1', { 'last-event-id': `6s${summary.version}` });
    await alice.post('/api/v1/channels/catch-up/messages', { content: 'after resume' });
    await resumed.next('message.posted', (m) => m.content === 'after resume');
    expect(messageSeqs(resumed)).toEqual([7, 8]); // the header wins over ?afterSeq=
    expect(resumed.named('summary.updated').filter((s) => s.version === summary.version)).toEqual([]);
  });

  it('a fresh stream starts live (no replay); a bad Last-Event-ID or afterSeq is a 400 naming it', async () => {
    await alice.post('/api/v1/channels', { name: 'fresh' });
    await alice.post('/api/v1/channels/fresh/messages', { content: 'old' });
    const live = await stream(t.baseUrl, 'fresh');
    await alice.post('/api/v1/channels/fresh/messages', { content: 'new' });
    await live.next('message.posted', (m) => m.content === 'new');
    expect(messageSeqs(live)).toEqual([2]);

    const badId = await SseClient.open(t.baseUrl, '/api/v1/channels/fresh/events', alice.token, { 'last-event-id': 'yesterday' });
    expect(badId.status).toBe(400);
    expect(badId.body.details).toEqual([{ field: 'Last-Event-ID', problems: [expect.stringContaining('a seq ("42") or a summary id ("40s3")')] }]);
    for (const afterSeq of ['-1', '2.5']) {
      const bad = await SseClient.open(t.baseUrl, `/api/v1/channels/fresh/events?afterSeq=${afterSeq}`, alice.token);
      expect([afterSeq, bad.status, bad.body.details.map((d: any) => d.field)]).toEqual([afterSeq, 400, ['afterSeq']]);
    }
    // Past the last seq (2) names no event of this stream: resuming there would skip messages 3.., silently.
    for (const [headers, query, field] of [[{ 'last-event-id': '3' }, '', 'Last-Event-ID'], [{ 'last-event-id': '9s1' }, '', 'Last-Event-ID'], [{}, '?afterSeq=3', 'afterSeq']] as const) {
      const ahead = await SseClient.open(t.baseUrl, `/api/v1/channels/fresh/events${query}`, alice.token, headers);
      expect([field, ahead.status]).toEqual([field, 400]);
      expect(ahead.body.details).toEqual([{ field, problems: [expect.stringContaining("past the channel's last seq (2)")] }]);
    }
    const atEnd = await SseClient.open(t.baseUrl, '/api/v1/channels/fresh/events', alice.token, { 'last-event-id': '2' });
    expect(atEnd.status).toBe(200);
    atEnd.stream!.close();
  });
});
