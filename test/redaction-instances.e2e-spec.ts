import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiClient, waitFor } from './support/http';
import { postSecret, readEverySurface, surfacesWith, uniqueSecret, waitForReplay } from './support/lifecycle-scenario';
import { SseClient } from './support/sse-client';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

/** Far longer than the test: a refused token on the other instance is the invalidation, never the cache's TTL. */
const CACHE_FOR_AN_HOUR = String(60 * 60 * 1000);

/**
 * Redaction with several instances (DESIGN §10, issue 29): the secret is posted and read through
 * a second, API-only instance (its token cache, its conditional-read tags, a live event stream
 * and an MCP session there), then redacted on the first. From the answer on, the second instance
 * serves the content on no route, stream (live or replayed), tool, resource or 304; and an
 * agent erased on the first is refused on the second although its token was cached there.
 */
describe('redaction reaches every instance (Postgres, BullMQ, two instances)', () => {
  let t: TestApp;
  let other: { app: NestFastifyApplication; baseUrl: string };
  let onOther: (client: ApiClient) => ApiClient;
  const secret = uniqueSecret();

  beforeAll(async () => {
    const env = { QHORUS_TOKEN_CACHE_TTL_MS: CACHE_FOR_AN_HOUR };
    t = await startTestApp('redact-instances', { env });
    other = await startAnotherInstance(t, { env });
    onOther = (client) => new ApiClient(other.baseUrl, client.token);
  });
  afterAll(async () => {
    await other?.app.close();
    await t?.close();
  });

  it('after a redaction on one instance, the other serves the content on no read, tag, stream, tool or resource', async () => {
    const [alice, bob] = [onOther(await t.agent('alice')), onOther(await t.agent('bob'))];
    const c = '/api/v1/channels/vault';
    // Posted and summarised through the other instance (the first runs the jobs).
    const s = await postSecret(alice, bob, 'vault', secret);
    expect(surfacesWith(await readEverySurface(alice, s), secret)).toEqual(expect.arrayContaining(['SSE replay', `GET ${c}/summary`, 'MCP get_channel_summary {"channel":"vault"}']));

    // What the other instance holds: tags of the summary and the context, and a live stream.
    const tagged = await Promise.all([`${c}/summary`, `${c}/context`].map(async (path) => {
      const res = await alice.get(path);
      expect(res.body ? JSON.stringify(res.body) : '').toContain(secret);
      return { path, tag: res.headers.get('etag')! };
    }));
    const lastSeq = (await alice.get(c)).body.lastSeq;
    const live = (await SseClient.open(other.baseUrl, `${c}/events?afterSeq=${lastSeq}&includeEvents=true`, alice.token)).stream!;
    await live.next('summary.updated'); // the stream is live (it sent the current summary)
    const seenBefore = live.events.length;

    const redacted = await new ApiClient(t.baseUrl, alice.token).post(`${c}/messages/${s.seq}/redact`, { reason: 'a production key was pasted' });
    expect(redacted.status).toBe(200);

    // At once, on the other instance: a tag taken before is no longer current (200, not 304), and the answer has no secret.
    for (const { path, tag } of tagged) {
      const res = await alice.get(path, { 'if-none-match': tag });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.headers.get('etag')).not.toBe(tag);
      expect(JSON.stringify(res.body)).not.toContain(secret);
    }
    const messages = (await alice.get(`${c}/messages`)).body as { seq: number; content: string | null; redacted?: object }[];
    expect(messages.find((m) => m.seq === s.seq)).toMatchObject({ content: null, redacted: { by: 'alice', reason: 'a production key was pasted' } });

    // The live stream on the other instance hears the rewind (from the first instance) and the replay, never the secret.
    await live.next('summary.updated', (d) => d.updatedBy === 'redaction:alice');
    await bob.post(`${c}/messages`, { type: 'STATUS', content: 'after the redaction' });
    await live.next('message.posted', (d) => d.content === 'after the redaction');
    const { summary } = await waitForReplay(alice, s);
    await live.next('summary.updated', (d) => d.version === summary.version);
    const heard = live.events.slice(seenBefore);
    live.close();
    expect(heard.some((e) => e.event === 'summary.updated')).toBe(true);
    expect(JSON.stringify(heard)).not.toContain(secret);

    // Every route, the SSE replay, every MCP tool and resource, on the other instance, for the sender and the admin.
    expect(surfacesWith(await readEverySurface(alice, s), secret)).toEqual([]);
    expect(surfacesWith(await readEverySurface(onOther(t.admin), s), secret)).toEqual([]);
  });

  it('an agent erased on one instance is refused on the other at once (its cached token too), and its messages read as tombstones there', async () => {
    const eve = onOther(await t.agent('eve'));
    const erased = uniqueSecret();
    expect((await eve.post('/api/v1/channels', { name: 'eve-desk' })).status).toBe(201);
    expect((await eve.post('/api/v1/channels/eve-desk/messages', { type: 'STATUS', content: `token ${erased}` })).status).toBe(201);
    expect((await eve.get('/api/v1/channels/eve-desk/messages')).body[0].content).toContain(erased); // eve's token now cached there

    const res = await t.admin.request('DELETE', '/api/v1/agents/eve?erase=true');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'eve', erased: 1 });

    await waitFor(async () => (await eve.get('/api/v1/channels')).status === 401, 'the erased agent refused on the other instance', 2_000, 10);
    const read = (await onOther(t.admin).get('/api/v1/channels/eve-desk/messages')).body;
    expect(read).toEqual([expect.objectContaining({ content: null, redacted: expect.objectContaining({ by: 'admin', reason: "agent 'eve' erased" }) })]);
    expect(JSON.stringify(read)).not.toContain(erased);
  });
});
