import { ApiClient, waitFor } from '../support/http';
import { SseClient } from '../support/sse-client';
import { startTestApp, TestApp } from '../support/test-app';

const MAX_METADATA_BYTES = 256;
const MAX_CHANNELS = 2;
const MAX_STREAMS = 2;
const MIN_MODEL_THRESHOLD = 10;

/** Issue 15, items 4 and 5: the limits are named knobs, and every refusal names its limit. */
describe('quotas and the cost policy', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient;

  async function startWith(policy: string) {
    return startTestApp(`quotas-${policy}`, {
      inProcessQueue: true,
      env: {
        QHORUS_MAX_METADATA_BYTES: String(MAX_METADATA_BYTES),
        QHORUS_MAX_CHANNELS_PER_AGENT: String(MAX_CHANNELS),
        QHORUS_MAX_SSE_STREAMS_PER_AGENT: String(MAX_STREAMS),
        QHORUS_MODEL_SUMMARISER_POLICY: policy,
        QHORUS_MODEL_SUMMARY_MIN_THRESHOLD: String(MIN_MODEL_THRESHOLD),
      },
    });
  }

  describe('with the default policy (admin)', () => {
    beforeAll(async () => {
      t = await startWith('admin');
      [alice, bob] = await Promise.all([t.agent('alice'), t.agent('bob')]);
    });
    afterAll(() => t?.close());

    it('metadata over QHORUS_MAX_METADATA_BYTES is a 413 naming metadata, and nothing is written', async () => {
      expect((await alice.post('/api/v1/channels', { name: 'meta' })).status).toBe(201);
      const big = await alice.post('/api/v1/channels/meta/messages', { content: 'x', metadata: { blob: 'y'.repeat(MAX_METADATA_BYTES) } });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ statusCode: 413, message: expect.stringMatching(/^metadata is \d+ bytes as JSON; the limit is 256 \(QHORUS_MAX_METADATA_BYTES\)/) });
      expect(big.body.details).toEqual([{ field: 'metadata', problems: [expect.stringContaining(String(MAX_METADATA_BYTES))] }]);
      expect((await alice.get('/api/v1/channels/meta/messages')).body).toEqual([]);
      expect((await alice.post('/api/v1/channels/meta/messages', { content: 'x', metadata: { small: true } })).status).toBe(201);
    });

    it('channels per agent: past QHORUS_MAX_CHANNELS_PER_AGENT a 403 naming the quota; the admin is not limited', async () => {
      expect((await bob.post('/api/v1/channels', { name: 'bob-1' })).status).toBe(201);
      expect((await bob.post('/api/v1/channels', { name: 'bob-2' })).status).toBe(201);
      const third = await bob.post('/api/v1/channels', { name: 'bob-3' });
      expect(third.status).toBe(403);
      expect(third.body.message).toBe(`'bob' has created ${MAX_CHANNELS} channels, the quota per agent (QHORUS_MAX_CHANNELS_PER_AGENT=${MAX_CHANNELS})`);
      expect((await bob.get('/api/v1/channels/bob-3')).status).toBe(404); // nothing half-made
      for (let i = 0; i <= MAX_CHANNELS; i++) expect((await t.admin.post('/api/v1/channels', { name: `admin-${i}` })).status).toBe(201);
    });

    it('channels per agent under a burst: 30 concurrent creates make exactly the quota, and a taken name uses none of it', async () => {
      const dana = await t.agent('dana');
      expect((await dana.post('/api/v1/channels', { name: 'bob-1' })).status).toBe(409); // taken: counts nothing
      const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => dana.post('/api/v1/channels', { name: `dana-${i}` }).then((r) => r.status)));
      expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_CHANNELS);
      expect(statuses.filter((s) => s === 403)).toHaveLength(30 - MAX_CHANNELS);
      const mine = ((await dana.get('/api/v1/channels')).body as { createdBy: string }[]).filter((c) => c.createdBy === 'dana');
      expect(mine).toHaveLength(MAX_CHANNELS);
    });

    it('event streams per agent: past QHORUS_MAX_SSE_STREAMS_PER_AGENT a 429 naming the limit; closing one frees a slot', async () => {
      const open = () => SseClient.open(t.baseUrl, '/api/v1/channels/meta/events', alice.token);
      const streams: SseClient[] = [];
      for (let i = 0; i < MAX_STREAMS; i++) {
        const opened = await open();
        expect(opened.status).toBe(200);
        streams.push(opened.stream!);
      }
      const refused = await open();
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(new RegExp(`limit QHORUS_MAX_SSE_STREAMS_PER_AGENT=${MAX_STREAMS}`));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another agent has slots of its own.
      const bobs = await SseClient.open(t.baseUrl, '/api/v1/channels/meta/events', bob.token);
      expect(bobs.status).toBe(200);
      bobs.stream!.close();
      // A closed stream's slot comes back once the server sees the client go.
      streams[0].close();
      const reopened = await waitFor(async () => {
        const again = await open();
        return again.status === 200 ? again.stream : null;
      }, 'a freed stream slot');
      reopened!.close();
      for (const s of streams.slice(1)) s.close();
    });

    it("an agent may not choose llm or tiered (403 naming QHORUS_MODEL_SUMMARISER_POLICY); the admin may, not below the floor of any trigger (400 naming each field)", async () => {
      for (const summariser of ['llm', 'tiered']) {
        const refused = await alice.post('/api/v1/channels', { name: `a-${summariser}`, summariser });
        expect(refused.status).toBe(403);
        expect(refused.body.message).toMatch(/QHORUS_MODEL_SUMMARISER_POLICY=admin/);
      }
      expect((await alice.patch('/api/v1/channels/meta', { summariser: 'llm' })).status).toBe(403);
      const low = await t.admin.post('/api/v1/channels', { name: 'cheap-llm', summariser: 'llm', summaryThreshold: MIN_MODEL_THRESHOLD - 1 });
      expect(low.status).toBe(400);
      expect(low.body.details).toEqual([{ field: 'summaryThreshold', problems: [expect.stringMatching(/at least 10 .*QHORUS_MODEL_SUMMARY_MIN_THRESHOLD/)] }]);
      expect((await t.admin.post('/api/v1/channels', { name: 'costly', summariser: 'llm', summaryThreshold: MIN_MODEL_THRESHOLD })).status).toBe(201);
      // Lowering the threshold later is held to the same minimum, whoever asks.
      expect((await t.admin.patch('/api/v1/channels/costly', { summaryThreshold: 1 })).status).toBe(400);
      expect((await alice.patch('/api/v1/channels/costly', { description: 'still fine' })).status).toBe(200);
      // So are the token and time triggers, which could otherwise start a model call per message.
      const both = await alice.patch('/api/v1/channels/costly', { summaryThresholdTokens: 1, updateAfterSeconds: 1 });
      expect(both.status).toBe(400);
      expect(both.body.details).toEqual([
        { field: 'summaryThresholdTokens', problems: [expect.stringMatching(/at least 500 .*QHORUS_MODEL_SUMMARY_MIN_TOKENS/)] },
        { field: 'updateAfterSeconds', problems: [expect.stringMatching(/at least 120 .*QHORUS_MODEL_SUMMARY_MIN_SECONDS/)] },
      ]);
      expect((await alice.get('/api/v1/channels/costly')).body).toMatchObject({ summaryThresholdTokens: null, updateAfterSeconds: null });
      expect((await alice.patch('/api/v1/channels/costly', { summaryThresholdTokens: 500, updateAfterSeconds: 120 })).status).toBe(200);
      expect((await alice.patch('/api/v1/channels/costly', { summaryThresholdTokens: null, updateAfterSeconds: null })).status).toBe(200);
      expect((await t.admin.post('/api/v1/channels', { name: 'ticking-llm', summariser: 'tiered', updateAfterSeconds: 5 })).body.details).toEqual([
        { field: 'updateAfterSeconds', problems: [expect.stringMatching(/QHORUS_MODEL_SUMMARY_MIN_SECONDS/)] },
      ]);
      // Choosing a model-backed summariser holds the channel's current triggers to the floors.
      expect((await alice.post('/api/v1/channels', { name: 'ticking', updateAfterSeconds: 1 })).status).toBe(201);
      expect((await t.admin.patch('/api/v1/channels/ticking', { summariser: 'llm' })).body.details).toEqual([
        { field: 'updateAfterSeconds', problems: [expect.stringMatching(/QHORUS_MODEL_SUMMARY_MIN_SECONDS/)] },
      ]);
    });
  });

  describe("with the 'creator' policy", () => {
    beforeAll(async () => {
      t = await startWith('creator');
      [alice, bob] = await Promise.all([t.agent('alice'), t.agent('bob')]);
    });
    afterAll(() => t?.close());

    it("the channel's creator may choose a model-backed summariser, another agent may not", async () => {
      expect((await alice.post('/api/v1/channels', { name: 'alices', summariser: 'tiered' })).status).toBe(201);
      const byOther = await bob.patch('/api/v1/channels/alices', { summariser: 'llm' });
      expect(byOther.status).toBe(403);
      expect(byOther.body.message).toMatch(/creator or the admin .*QHORUS_MODEL_SUMMARISER_POLICY=creator/);
      expect((await alice.patch('/api/v1/channels/alices', { summariser: 'llm' })).status).toBe(200);
    });
  });
});
