import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ChannelSubscriptions } from '../apps/channel-service/src/realtime/channel-subscriptions';
import { postMany } from './support/channel-helpers';
import { ApiClient, waitFor } from './support/http';
import { SseClient } from './support/sse-client';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

describe('SSE: live channel events at GET /api/v1/channels/{name}/events', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient;
  const streams: SseClient[] = [];

  /** Opens a stream and waits until it is subscribed (its first comment), so no event is missed. */
  async function stream(client: ApiClient, channel: string, query = ''): Promise<SseClient> {
    const opened = await SseClient.open(client.baseUrl, `/api/v1/channels/${channel}/events${query}`, client.token);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const s = opened.stream!;
    streams.push(s);
    await waitFor(async () => s.comments.some((c) => c.startsWith('streaming channel')), 'the stream to open');
    return s;
  }

  beforeAll(async () => {
    t = await startTestApp('sse');
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((n) => t.agent(n)));
  });
  afterAll(async () => {
    streams.forEach((s) => s.close());
    await t?.close();
  });

  it('streams message.posted for each post, then summary.updated once the threshold is crossed', async () => {
    await alice.post('/api/v1/channels', { name: 'live', summaryThreshold: 5 });
    const s = await stream(alice, 'live');
    await postMany(bob, 'live', 5, (i) => `build step ${i}`);

    const updated = await s.next('summary.updated');
    expect(updated.data).toMatchObject({ channel: 'live', version: 1, coversThroughSeq: 5, updatedBy: expect.any(String) });
    expect(s.named('message.posted').map((m) => [m.seq, m.sender, m.content])).toEqual([1, 2, 3, 4, 5].map((seq) => [seq, 'bob', `build step ${seq - 1}`]));
    // The summary the event announces is there to read.
    const summary = (await alice.get('/api/v1/channels/live/summary')).body;
    expect(summary).toMatchObject({ version: 1, coversThroughSeq: 5 });
    expect(summary.text).toMatch(/bob/);
  });

  it('carries only its own channel\'s events, and EVENT telemetry only when asked', async () => {
    await alice.post('/api/v1/channels', { name: 'quiet' });
    await alice.post('/api/v1/channels', { name: 'noisy' });
    const plain = await stream(alice, 'quiet');
    const telemetry = await stream(alice, 'quiet', '?includeEvents=true');
    await bob.post('/api/v1/channels/noisy/messages', { content: 'elsewhere' });
    await bob.post('/api/v1/channels/quiet/messages', { type: 'EVENT', content: 'cpu 93%' });
    await bob.post('/api/v1/channels/quiet/messages', { content: 'here' });
    await plain.next('message.posted', (m) => m.content === 'here');
    await telemetry.next('message.posted', (m) => m.content === 'here');
    expect(plain.named('message.posted').map((m) => m.content)).toEqual(['here']);
    expect(telemetry.named('message.posted').map((m) => m.content)).toEqual(['cpu 93%', 'here']);
  });

  it('honours membership: 404 for a non-member, 401 without a token, and a member removed is cut off', async () => {
    await alice.post('/api/v1/channels', { name: 'private-ops', members: ['bob'] });
    const outsider = await SseClient.open(t.baseUrl, '/api/v1/channels/private-ops/events', carol.token);
    expect(outsider.status).toBe(404);
    expect(outsider.body).toMatchObject({ statusCode: 404, message: "Channel 'private-ops' not found" });
    expect((await SseClient.open(t.baseUrl, '/api/v1/channels/private-ops/events')).status).toBe(401);

    const member = await stream(bob, 'private-ops');
    await alice.post('/api/v1/channels/private-ops/messages', { content: 'for members' });
    await member.next('message.posted', (m) => m.content === 'for members');
    expect((await alice.patch('/api/v1/channels/private-ops', { members: ['carol'] })).status).toBe(200);
    await waitFor(async () => member.ended, 'the removed member\'s stream to end');
  });

  it('releases a stream when its client goes away', async () => {
    const subscriptions = t.app.get(ChannelSubscriptions);
    const before = subscriptions.openCount;
    const s = await stream(carol, 'live');
    expect(subscriptions.openCount).toBe(before + 1);
    s.close();
    await waitFor(async () => subscriptions.openCount === before, 'the subscription to be released');
  });

  describe('across instances (Redis pub/sub)', () => {
    let second: NestFastifyApplication;
    let secondUrl: string;

    beforeAll(async () => {
      // An API-only instance on the same database and Redis prefix: it runs no jobs itself.
      ({ app: second, baseUrl: secondUrl } = await startAnotherInstance(t));
    });
    afterAll(() => second?.close());

    it('delivers to a stream on one instance what was posted and summarised on another', async () => {
      await alice.post('/api/v1/channels', { name: 'spread', summaryThreshold: 3 });
      const s = await stream(new ApiClient(secondUrl, bob.token), 'spread');
      await postMany(alice, 'spread', 3);
      const updated = await s.next('summary.updated');
      expect(updated.data).toMatchObject({ channel: 'spread', coversThroughSeq: 3 });
      expect(s.named('message.posted').map((m) => m.seq)).toEqual([1, 2, 3]);
    });
  });
});
