import {
  FakeAnthropic,
  FakeAnthropicReply,
  replyError,
  replyHang,
  replyText,
  startFakeAnthropic,
} from '../libs/blocks-summarisation/test/fake-anthropic-server';
import { ApiClient, waitFor } from './support/http';
import { getSummary, postMany, waitForSummary } from './support/channel-helpers';
import { startTestApp, TestApp } from './support/test-app';

/** Far above any backlog here: summaries run only when a test asks (refresh). */
const MANUAL_ONLY = 10_000;
const LLM_TIMEOUT_MS = 500;
const JOB_ATTEMPTS = 2;

/** How the fake model answers right now; tests switch it. */
type ModelBehaviour = () => FakeAnthropicReply;
const answers = (text: string): ModelBehaviour => () => replyText(text);

/**
 * Issue 4: the tiered and LLM strategies in the running service, against a local server speaking
 * the Anthropic Messages API (the real SDK pointed at it through ANTHROPIC_BASE_URL).
 */
describe('tiered and LLM summaries against a fake Anthropic API', () => {
  let fake: FakeAnthropic;
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, dave: ApiClient;
  let behaviour: ModelBehaviour = answers('unused');

  const participants = (s: { annotations: Record<string, string> }) => JSON.parse(s.annotations.participants ?? '[]').sort();
  /** Posts `count` messages, refreshes, and waits for the next version. */
  async function summariseBatch(channel: string, who: ApiClient, count: number, label: string) {
    const before = await getSummary(who, channel);
    await postMany(who, channel, count, (i) => `${label} ${i}`);
    expect((await who.post(`/api/v1/channels/${channel}/summary/refresh`)).status).toBe(202);
    return waitForSummary(who, channel, (s) => s.version === before.version + 1, `${channel} after ${label}`);
  }

  beforeAll(async () => {
    fake = await startFakeAnthropic(() => behaviour());
    t = await startTestApp('llm', {
      env: {
        ANTHROPIC_API_KEY: 'test',
        ANTHROPIC_BASE_URL: fake.baseURL,
        QHORUS_LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        QHORUS_JOB_ATTEMPTS: String(JOB_ATTEMPTS),
      },
    });
    [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((n) => t.agent(n)));
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('picks the tier by batch size: 6 → grouped, 5 → verbatim, 21 → synthesised with the model’s text, 20 → grouped; participants accumulate over every tier', async () => {
    const created = await alice.post('/api/v1/channels', { name: 'tiers', summariser: 'tiered', summaryThreshold: MANUAL_ONLY, description: 'Release planning' });
    expect(created.status).toBe(201);
    expect(created.body.warnings).toEqual([]);

    const grouped = await summariseBatch('tiers', alice, 6, 'alice plans');
    expect(grouped.annotations).toMatchObject({ tier: 'grouped', itemCount: '6' });
    expect(participants(grouped)).toEqual(['alice']);

    const verbatim = await summariseBatch('tiers', bob, 5, 'bob notes');
    expect(verbatim.annotations).toMatchObject({ tier: 'verbatim', itemCount: '5' });
    expect(verbatim.text).toContain('STATUS bob [general]: bob notes 4');
    // The state tracker runs on every batch, whatever tier writes the text (issue 13).
    expect(participants(verbatim)).toEqual(['alice', 'bob']);

    behaviour = answers('Release planning: alice planned, bob noted, carol reported 21 updates.');
    const requestsBefore = fake.requests.length;
    const synthesised = await summariseBatch('tiers', carol, 21, 'carol reports');
    expect(synthesised.text).toBe('Release planning: alice planned, bob noted, carol reported 21 updates.');
    expect(synthesised.annotations).toMatchObject({ tier: 'synthesised', itemCount: '21' });
    expect(synthesised.annotations.tierFallback).toBeUndefined();
    expect(participants(synthesised)).toEqual(['alice', 'bob', 'carol']);
    // The real SDK sent one Messages API request, grounded on the description and carrying the batch.
    expect(fake.requests.length).toBe(requestsBefore + 1);
    const prompt = fake.requests[fake.requests.length - 1].body.messages[0].content;
    expect(prompt).toContain('Release planning');
    expect(prompt).toContain('New items (21):');
    expect(prompt).toContain('carol reports 20');

    const regrouped = await summariseBatch('tiers', dave, 20, 'dave checks');
    expect(regrouped.annotations).toMatchObject({ tier: 'grouped', itemCount: '20' });
    expect(participants(regrouped)).toEqual(['alice', 'bob', 'carol', 'dave']);
  });

  describe('when the model fails, no channel gets a blank summary or loses its previous one', () => {
    const failures: [string, ModelBehaviour, RegExp][] = [
      ['answers HTTP 500', () => replyError(500, 'overloaded'), /HTTP 500 api_error: overloaded/],
      ['answers blank', () => replyText('   '), /blank answer/],
      ['never answers', () => replyHang(), new RegExp(`timed out after ${LLM_TIMEOUT_MS} ms`)],
    ];

    beforeAll(async () => {
      behaviour = answers('The first synthesis.');
      await alice.post('/api/v1/channels', { name: 'tiered-down', summariser: 'tiered', summaryThreshold: MANUAL_ONLY });
      await alice.post('/api/v1/channels', { name: 'llm-down', summariser: 'llm', summaryThreshold: MANUAL_ONLY });
      await summariseBatch('tiered-down', alice, 6, 'before the outage');
      const first = await summariseBatch('llm-down', alice, 3, 'before the outage');
      expect(first.text).toBe('The first synthesis.');
    });

    it.each(failures)('model %s: tiered falls back to its heuristic tier, annotated', async (_, failing, reason) => {
      behaviour = failing;
      const before = await getSummary(bob, 'tiered-down');
      const after = await summariseBatch('tiered-down', bob, 21, 'during the outage');
      expect(after.text.trim()).not.toBe('');
      expect(after.annotations.tier).toBe('grouped');
      expect(after.annotations.tierFallback).toMatch(/^large->medium: /);
      expect(after.annotations.tierFallback).toMatch(reason);
      expect(after.lastError).toBeNull();
      expect(after.coversThroughSeq).toBe(after.lastSeq);
      expect(participants(after)).toEqual([...new Set([...participants(before), 'bob'])].sort());
    });

    it.each(failures)('model %s: an llm channel keeps its previous slot intact and says why in lastError', async (_, failing, reason) => {
      behaviour = failing;
      const before = await getSummary(carol, 'llm-down');
      const requestsBefore = fake.requests.length;
      await postMany(carol, 'llm-down', 2, (i) => `during the outage ${i}`);
      await carol.post('/api/v1/channels/llm-down/summary/refresh');
      // Every attempt reaches the model and fails; wait for the last one to be recorded.
      await waitFor(async () => fake.requests.length >= requestsBefore + JOB_ATTEMPTS, 'every attempt to reach the model');
      const failed = await waitForSummary(carol, 'llm-down', (s) => reason.test(s.lastError ?? ''), 'the failure to be recorded');
      expect(failed.annotations).toEqual(before.annotations);
      expect(failed).toMatchObject({
        text: before.text,
        version: before.version,
        coversThroughSeq: before.coversThroughSeq,
        pending: before.pending + 2,
      });
      expect(failed.text).toBe('The first synthesis.');
    });

    it('recovers on the next trigger once the model answers again', async () => {
      behaviour = answers('Recovered synthesis.');
      const before = await getSummary(carol, 'llm-down');
      expect(before.lastError).not.toBeNull();
      // A refresh may land while the last failed attempt is still being retired; ask until it takes.
      const recovered = await waitFor(async () => {
        await carol.post('/api/v1/channels/llm-down/summary/refresh');
        const s = await getSummary(carol, 'llm-down');
        return s.version > before.version ? s : null;
      }, 'the llm channel to recover');
      expect(recovered).toMatchObject({ text: 'Recovered synthesis.', lastError: null, pending: 0 });
      expect(recovered.annotations.tier).toBe('synthesised');
    });

    it('never stored a blank text in any version of either channel', async () => {
      for (const channel of ['tiered-down', 'llm-down']) {
        const history = (await alice.get(`/api/v1/channels/${channel}/summary/history?limit=100`)).body;
        expect(history.length).toBeGreaterThan(0);
        for (const version of history) expect(version.text.trim()).not.toBe('');
      }
    });
  });
});
