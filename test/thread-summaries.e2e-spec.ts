import { ApiClient, waitFor } from './support/http';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

/** Far above any backlog here: the channel summary slot stays out of the way. */
const MANUAL_ONLY = 10_000;

const threadPath = (channel: string, correlationId: string) => `/api/v1/channels/${channel}/threads/${encodeURIComponent(correlationId)}/summary`;

/** Waits until the thread has a summary satisfying `ok`, returning it. */
function waitForThreadSummary(client: ApiClient, channel: string, correlationId: string, ok: (s: any) => boolean = () => true) {
  return waitFor(async () => {
    const res = await client.get(threadPath(channel, correlationId));
    return res.status === 200 && ok(res.body) ? res.body : null;
  }, `a summary of thread ${correlationId} in ${channel}`);
}

/** Thread summaries made from the durable thread index through the summary queue, read over HTTP. */
describe('thread summaries', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, mallory: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('threads');
    [alice, bob, carol, mallory] = await Promise.all(['alice', 'bob', 'carol', 'mallory'].map((n) => t.agent(n)));
    await alice.post('/api/v1/channels', { name: 'build', summaryThreshold: MANUAL_ONLY, description: 'CI and releases' });
  });
  afterAll(() => t?.close());

  it('a thread QUERY → RESPONSE → COMMAND → STATUS → DONE gets a summary of the whole thread; until DONE it is a 404', async () => {
    const say = (who: ApiClient, body: Record<string, unknown>) => who.post('/api/v1/channels/build/messages', { correlationId: 'release-7', ...body });
    const query = await say(alice, { type: 'QUERY', content: 'is main green for release 7?', target: 'bob' });
    expect(query.status).toBe(201);
    await carol.post('/api/v1/channels/build/messages', { content: 'unrelated: lunch at noon' });
    await say(bob, { type: 'RESPONSE', content: 'yes, all 312 tests pass', inReplyTo: query.body.seq });
    const command = await say(alice, { type: 'COMMAND', content: 'cut the release-7 tag', target: 'bob' });
    await say(bob, { type: 'STATUS', content: 'tagging now' });

    const open = await alice.get(threadPath('build', 'release-7'));
    expect(open.status).toBe(404);
    expect(open.body).toMatchObject({ statusCode: 404, message: expect.stringMatching(/Thread 'release-7' in channel 'build' has no summary/) });

    const done = await say(bob, { type: 'DONE', content: 'release 7 tagged', inReplyTo: command.body.seq });
    const summary = await waitForThreadSummary(alice, 'build', 'release-7');
    expect(summary).toMatchObject({
      channel: 'build',
      correlationId: 'release-7',
      firstSeq: query.body.seq,
      lastSeq: done.body.seq,
      messageCount: 5, // the unrelated message is not part of the thread
      closedBy: 'DONE',
    });
    expect(summary.text).toMatch(/^Channel: CI and releases\n/); // grounded on the channel description
    expect(summary.text).toContain('release 7 tagged');
    expect(JSON.parse(summary.annotations.participants).sort()).toEqual(['alice', 'bob']);
    expect(JSON.parse(summary.annotations.openThreads)).toEqual([]);
    expect(summary.annotations.itemCount).toBe('5');
  });

  it('an open thread and an unknown thread are 404s', async () => {
    await alice.post('/api/v1/channels/build/messages', { type: 'QUERY', content: 'who owns flaky test X?', correlationId: 'flaky-x' });
    expect((await alice.get(threadPath('build', 'flaky-x'))).status).toBe(404);
    expect((await alice.get(threadPath('build', 'no-such-thread'))).status).toBe(404);
    expect((await alice.get(threadPath('no-such-channel', 'release-7'))).status).toBe(404);
  });

  it('FAILURE closes a thread too', async () => {
    await alice.post('/api/v1/channels/build/messages', { type: 'COMMAND', content: 'deploy to staging', correlationId: 'deploy-1', target: 'carol' });
    await carol.post('/api/v1/channels/build/messages', { type: 'FAILURE', content: 'staging is out of disk', correlationId: 'deploy-1' });
    const summary = await waitForThreadSummary(bob, 'build', 'deploy-1');
    expect(summary).toMatchObject({ closedBy: 'FAILURE', messageCount: 2 });
    expect(summary.text).toContain('staging is out of disk');
  });

  it('a HANDOFF keeps the thread open (no summary); the DONE that ends it gets the summary of the whole thread', async () => {
    await alice.post('/api/v1/channels/build/messages', { type: 'COMMAND', content: 'bump the base image', correlationId: 'image-2', target: 'bob' });
    await bob.post('/api/v1/channels/build/messages', { type: 'HANDOFF', content: 'carol knows the registry', correlationId: 'image-2', target: 'carol' });
    expect((await carol.get(threadPath('build', 'image-2'))).status).toBe(404);

    await carol.post('/api/v1/channels/build/messages', { type: 'DONE', content: 'base image bumped', correlationId: 'image-2' });
    const done = await waitForThreadSummary(carol, 'build', 'image-2');
    expect(done).toMatchObject({ closedBy: 'DONE', messageCount: 3 });
  });

  it('a RESPONSE answers a QUERY: the answered thread gets its summary', async () => {
    await alice.post('/api/v1/channels/build/messages', { type: 'QUERY', content: 'which runner is free?', correlationId: 'runner-1', target: 'bob' });
    await bob.post('/api/v1/channels/build/messages', { type: 'RESPONSE', content: 'runner 3', correlationId: 'runner-1' });
    expect(await waitForThreadSummary(alice, 'build', 'runner-1')).toMatchObject({ closedBy: 'RESPONSE', messageCount: 2 });
  });

  it('follows the channel’s membership: a private channel’s thread summary is a 404 to outsiders', async () => {
    await alice.post('/api/v1/channels', { name: 'secret', members: ['bob'], summaryThreshold: MANUAL_ONLY });
    await alice.post('/api/v1/channels/secret/messages', { type: 'QUERY', content: 'rotate the keys?', correlationId: 'keys' });
    await bob.post('/api/v1/channels/secret/messages', { type: 'DONE', content: 'rotated', correlationId: 'keys' });
    await waitForThreadSummary(bob, 'secret', 'keys');
    expect((await alice.get(threadPath('secret', 'keys'))).status).toBe(200);
    expect((await t.admin.get(threadPath('secret', 'keys'))).status).toBe(200);
    const outsider = await mallory.get(threadPath('secret', 'keys'));
    expect(outsider.status).toBe(404);
    expect(outsider.body.message).toBe("Channel 'secret' not found");
    // The channel's own summary read follows the same rule (it has a narrower query of its own).
    expect((await bob.get('/api/v1/channels/secret/summary')).status).toBe(200);
    expect((await t.admin.get('/api/v1/channels/secret/summary')).status).toBe(200);
    const summaryToOutsider = await mallory.get('/api/v1/channels/secret/summary');
    expect(summaryToOutsider.status).toBe(404);
    expect(summaryToOutsider.body.message).toBe("Channel 'secret' not found");
  });

  it('summarises the whole thread from Postgres even when another instance took most of it (restarts, scale-out)', async () => {
    const other = await startAnotherInstance(t);
    try {
      const aliceThere = new ApiClient(other.baseUrl, alice.token);
      const bobThere = new ApiClient(other.baseUrl, bob.token);
      // Three messages through the other instance: this one never sees their events.
      await aliceThere.post('/api/v1/channels/build/messages', { type: 'QUERY', content: 'can we drop node 18?', correlationId: 'node-18' });
      await bobThere.post('/api/v1/channels/build/messages', { type: 'RESPONSE', content: 'nothing depends on it', correlationId: 'node-18' });
      await aliceThere.post('/api/v1/channels/build/messages', { type: 'COMMAND', content: 'drop it from the matrix', correlationId: 'node-18' });
      // The close through this instance.
      await bob.post('/api/v1/channels/build/messages', { type: 'DONE', content: 'node 18 dropped', correlationId: 'node-18' });
      const summary = await waitForThreadSummary(alice, 'build', 'node-18');
      expect(summary).toMatchObject({ messageCount: 4, closedBy: 'DONE' });
      expect(summary.text).toContain('node 18 dropped');
      expect(JSON.parse(summary.annotations.participants).sort()).toEqual(['alice', 'bob']);
      // And it is readable through either instance.
      expect((await aliceThere.get(threadPath('build', 'node-18'))).body).toEqual(summary);
    } finally {
      await other.app.close();
    }
  });
});
