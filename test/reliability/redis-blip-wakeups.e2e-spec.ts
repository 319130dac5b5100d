import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiClient } from '../support/http';
import { SseClient } from '../support/sse-client';
import { TcpProxy } from '../support/tcp-proxy';
import { TEST_REDIS_URL } from '../support/test-database';
import { startAnotherInstance, startTestApp, TestApp } from '../support/test-app';

/** Long enough for a post to be published into the gap, short of any outage detection. */
const CUT_MS = 500;
/** Far above ioredis' reconnect back-off after a short cut (a few hundred ms): only "never" fails. */
const ARRIVES_WITHIN_MS = 15_000;
/** The long poll's own deadline: it must answer well before it. */
const WAIT_MS = 30_000;

/**
 * Pub/sub keeps nothing for a connection that is away: a post published while an instance's
 * Redis connection was down never reached its waits and streams, and nothing recovered it until
 * the next post (a tester found waits answered only at their deadline, streams silent). Instance B
 * reaches Redis through a proxy this test cuts; A reaches it directly. No timing is asserted
 * beyond "before the wait's own deadline".
 */
describe('a Redis blip loses no wake-up: waits and streams read Postgres again when the connection is back', () => {
  let t: TestApp;
  let proxy: TcpProxy;
  let b: { app: NestFastifyApplication; baseUrl: string };
  let aliceOnA: ApiClient;
  let aliceOnB: ApiClient;
  const lastSeq = async () => (await aliceOnA.get('/api/v1/channels/blip')).body.lastSeq as number;
  const post = async (on: ApiClient, content: string) => {
    const res = await on.post('/api/v1/channels/blip/messages', { content });
    expect(res.status).toBe(201);
    return res.body.seq as number;
  };
  const blip = async (during: () => Promise<number>) => {
    await proxy.cut();
    const seq = await during();
    await new Promise((r) => setTimeout(r, CUT_MS));
    await proxy.restore();
    return seq;
  };
  /** A stream that has seen a live post from the other instance: both subscriptions are up. */
  const liveStream = async (on: string, other: ApiClient) => {
    const { stream } = await SseClient.open(on, '/api/v1/channels/blip/events', aliceOnA.token);
    const seq = await post(other, 'warm-up');
    await stream!.next('message.posted', (m) => m.seq === seq);
    return stream!;
  };

  beforeAll(async () => {
    t = await startTestApp('redisblip');
    const redis = new URL(TEST_REDIS_URL);
    proxy = await TcpProxy.start({ host: redis.hostname, port: Number(redis.port) });
    b = await startAnotherInstance(t, { env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}` } });
    aliceOnA = await t.agent('alice');
    aliceOnB = new ApiClient(b.baseUrl, aliceOnA.token);
    expect((await aliceOnA.post('/api/v1/channels', { name: 'blip' })).status).toBe(201);
  });
  afterAll(async () => {
    await b?.app.close();
    await t?.close();
    await proxy?.cut();
  });

  /** A stream on `streamOn` gets what `poster` posted during a blip, with no later post. */
  const expectStreamGetsPostDuringBlip = async (streamOn: string, poster: ApiClient, content: string) => {
    const stream = await liveStream(streamOn, poster);
    try {
      const seq = await blip(() => post(poster, content));
      expect((await stream.next('message.posted', (m) => m.seq === seq, ARRIVES_WITHIN_MS)).data.content).toBe(content);
    } finally {
      stream.close();
    }
  };

  it('a stream on the instance whose subscriber was cut gets the post made elsewhere meanwhile, with no later post', () =>
    expectStreamGetsPostDuringBlip(b.baseUrl, aliceOnA, 'posted on A while B was away from Redis'));

  it('a stream elsewhere gets what the cut instance posted meanwhile (it asks the others to read again when back)', () =>
    expectStreamGetsPostDuringBlip(t.baseUrl, aliceOnB, 'posted on B while it was away from Redis'));

  it('a long poll on the cut instance answers the post made elsewhere before its own deadline, not at it', async () => {
    await liveStream(b.baseUrl, aliceOnA).then((s) => s.close()); // B hears A again
    const after = await lastSeq();
    const started = Date.now();
    const waiting = aliceOnB.get(`/api/v1/channels/blip/messages?afterSeq=${after}&waitMs=${WAIT_MS}`);
    await new Promise((r) => setTimeout(r, 200)); // the wait is asleep
    const seq = await blip(() => post(aliceOnA, 'wake the wait on B'));
    const answer = await waiting;
    expect(answer.body.map((m: { seq: number }) => m.seq)).toEqual([seq]);
    expect(Date.now() - started).toBeLessThan(WAIT_MS - ARRIVES_WITHIN_MS);
  });
});
