import { Message, SummaryResult } from '@qhorus/api';
import { STATE_KEY_NAMES } from '@qhorus/blocks-channel-summary';
import { ContentSummariser, SummariseOptions } from '@qhorus/blocks-summarisation';
import { IncidentSummariser, INCIDENT_KEYS } from '../examples/custom-summariser/incident-summariser';
import { IncidentSummaryModule } from '../examples/custom-summariser/incident-summary.module';
import { ApiClient, waitFor } from './support/http';
import { getSummary, postMany, waitForSummary } from './support/channel-helpers';
import { startTestApp, TestApp } from './support/test-app';

/** A named strategy that never answers: the job's own timeout must cut it off. */
class HangingSummariser implements ContentSummariser<Message> {
  calls = 0;
  summarise(): Promise<SummaryResult> {
    this.calls++;
    return new Promise<SummaryResult>(() => undefined);
  }
}

const SUMMARY_TIMEOUT_MS = 1_000;
/** How long the job waits for an aborted call to end (the hanging one never does). */
const ABORT_GRACE_MS = 200;
/** Far above any backlog here: summaries run only when a test asks (refresh). */
const MANUAL_ONLY = 10_000;

/** The state tracker's keys of a summary (DESIGN §3), whatever strategy wrote it. */
const stateKeysOf = (s: { annotations: Record<string, string> }) =>
  Object.fromEntries(STATE_KEY_NAMES.filter((k) => k in s.annotations).map((k) => [k, s.annotations[k]]));

type SummariseCall = { items: readonly Message[]; previous: SummaryResult | null | undefined; options?: SummariseOptions; returned: Promise<SummaryResult> };

/**
 * Issue 4: a domain team's summariser module (the worked example in examples/custom-summariser)
 * plugged into the running service with ordinary Nest DI.
 */
describe('custom summarisers in the running service', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient;
  let summarise: jest.SpyInstance<Promise<SummaryResult>, Parameters<IncidentSummariser['summarise']>>;
  const hanging = new HangingSummariser();

  /** Calls the module's summariser received for one channel, with what each returned. */
  const callsFor = (channel: string): SummariseCall[] =>
    summarise.mock.calls
      .map(([items, previous, options], i) => ({ items, previous, options, returned: summarise.mock.results[i].value as Promise<SummaryResult> }))
      .filter((call) => call.items[0]?.channel === channel);

  beforeAll(async () => {
    t = await startTestApp('summarisers', {
      imports: [IncidentSummaryModule],
      summarisers: { hang: hanging },
      env: { QHORUS_SUMMARY_TIMEOUT_MS: String(SUMMARY_TIMEOUT_MS), QHORUS_SUMMARY_ABORT_GRACE_MS: String(ABORT_GRACE_MS), QHORUS_JOB_ATTEMPTS: '2', QHORUS_MODEL_SUMMARISER_POLICY: 'anyone' },
    });
    // The one instance Nest made; the spy records every call and still runs the real method.
    summarise = jest.spyOn(t.app.get(IncidentSummariser, { strict: false }), 'summarise');
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((n) => t.agent(n)));
  });
  afterAll(() => t?.close());

  it('the module’s CONTENT_SUMMARISER is the default: called with the batch in seq order and the previous result; GET serves exactly what it returned', async () => {
    const created = await alice.post('/api/v1/channels', { name: 'outage', description: 'Checkout outage war room', summaryThreshold: MANUAL_ONLY });
    expect(created.status).toBe(201);
    const posts = [
      [alice, { content: 'checkout returns 502s', metadata: { severity: 'SEV2' } }],
      [bob, { content: 'looking at the load balancer' }],
      [carol, { content: 'db connections are saturated' }],
      [alice, { content: 'paging the db on-call' }],
      [bob, { content: 'mitigation applied: pool size raised' }],
      [carol, { content: 'error rate falling' }],
    ] as const;
    // Concurrent posts: the summariser must still see them in seq order.
    const seqs = (await Promise.all(posts.map(([who, body]) => who.post('/api/v1/channels/outage/messages', body)))).map((r) => r.body.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6]);

    await alice.post('/api/v1/channels/outage/summary/refresh');
    const first = await waitForSummary(alice, 'outage', (s) => s.version === 1, 'the first summary');
    const [call1] = callsFor('outage');
    expect(callsFor('outage')).toHaveLength(1);
    expect(call1.items.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(call1.previous).toBeNull();
    expect(call1.options?.preamble).toBe('Checkout outage war room');
    const returned1 = await call1.returned;
    expect(first.text).toBe(returned1.text);
    // Its text and keys as it returned them, with the state tracker's keys on top (issue 13).
    expect(first.annotations).toEqual({ ...returned1.annotations, ...stateKeysOf(first) });
    // Every sender, in first-seen (seq) order: the concurrent posts decide that order.
    const names = new Map([[alice, 'alice'], [bob, 'bob'], [carol, 'carol']]);
    const sendersBySeq = posts.map(([who], i) => ({ name: names.get(who)!, seq: seqs[i] })).sort((a, b) => a.seq - b.seq);
    expect(JSON.parse(first.annotations.participants)).toEqual([...new Set(sendersBySeq.map((p) => p.name))]);
    expect(first.annotations).toMatchObject({ [INCIDENT_KEYS.severity]: 'SEV2', [INCIDENT_KEYS.status]: 'mitigated' });
    expect(first.text).toMatch(/^Checkout outage war room\n\nIncident status: MITIGATED \(SEV2\)/);

    await postMany(carol, 'outage', 2, (i) => `follow-up ${i}`);
    await alice.post('/api/v1/channels/outage/messages', { content: 'all green, incident resolved' });
    await alice.post('/api/v1/channels/outage/summary/refresh');
    const second = await waitForSummary(alice, 'outage', (s) => s.version === 2, 'the second summary');
    const call2 = callsFor('outage')[1];
    expect(call2.items.map((m) => m.seq)).toEqual([7, 8, 9]);
    expect(call2.previous).toEqual({ text: first.text, annotations: first.annotations });
    const returned2 = await call2.returned;
    expect(second.text).toBe(returned2.text);
    expect(second.annotations).toEqual({ ...returned2.annotations, ...stateKeysOf(second) });
    expect(second.annotations[INCIDENT_KEYS.status]).toBe('resolved');
    expect(JSON.parse(second.annotations[INCIDENT_KEYS.responders])).toEqual(expect.arrayContaining(['alice', 'bob', 'carol']));
  });

  it('a channel picks the module’s named strategy by PATCH; accumulated annotations survive the switch', async () => {
    expect((await bob.post('/api/v1/channels', { name: 'ops', summariser: 'verbatim', summaryThreshold: MANUAL_ONLY })).status).toBe(201);
    await postMany(bob, 'ops', 2, (i) => `routine check ${i}`);
    await bob.post('/api/v1/channels/ops/summary/refresh');
    const verbatim = await waitForSummary(bob, 'ops', (s) => s.version === 1, 'the verbatim summary');
    expect(verbatim.annotations.tier).toBe('verbatim');
    expect(callsFor('ops')).toHaveLength(0);

    const patched = await bob.patch('/api/v1/channels/ops', { summariser: 'incident' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ summariser: 'incident', warnings: [] });
    await bob.post('/api/v1/channels/ops/messages', { type: 'FAILURE', content: 'SEV3: backup job failed' });
    await bob.post('/api/v1/channels/ops/summary/refresh');
    const incident = await waitForSummary(bob, 'ops', (s) => s.version === 2, 'the incident summary');
    expect(callsFor('ops').map((c) => c.items.map((m) => m.seq))).toEqual([[3]]);
    expect(incident.summariser).toBe('incident');
    expect(incident.text).toMatch(/^Incident status: INVESTIGATING \(SEV3\)/);
    expect(incident.annotations).toMatchObject({ tier: 'verbatim', [INCIDENT_KEYS.severity]: 'SEV3' });
  });

  it('an unknown strategy is a 400 listing the known names, the module’s and the options’ included', async () => {
    const res = await bob.patch('/api/v1/channels/ops', { summariser: 'oracle' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Unknown summariser 'oracle'; known summarisers: heuristic, verbatim, llm, tiered, hang, incident");
    expect((await bob.get('/api/v1/channels/ops')).body.summariser).toBe('incident');
  });

  it('a summariser that hangs (and ignores its signal) is cut off by QHORUS_SUMMARY_TIMEOUT_MS: lastError says so and the slot stays as it was', async () => {
    await carol.post('/api/v1/channels', { name: 'stuck', summariser: 'hang', summaryThreshold: MANUAL_ONLY });
    await postMany(carol, 'stuck', 2);
    await carol.post('/api/v1/channels/stuck/summary/refresh');
    const failed = await waitForSummary(carol, 'stuck', (s) => s.lastError !== null, 'the timeout to be recorded');
    expect(failed.lastError).toBe(`summariser 'hang' timed out after ${SUMMARY_TIMEOUT_MS} ms and was still running ${ABORT_GRACE_MS} ms after it was aborted`);
    expect(failed).toMatchObject({ text: '', version: 0, coversThroughSeq: 0, pending: 2 });
    expect(hanging.calls).toBeGreaterThanOrEqual(1);
  });

  it('without an API key, llm is reported unavailable at creation and tiered sends large batches to its middle tier (the module’s summariser), annotated', async () => {
    const llm = await alice.post('/api/v1/channels', { name: 'thinker', summariser: 'llm' });
    expect(llm.status).toBe(201);
    expect(llm.body.warnings).toEqual(["Summariser 'llm' is unavailable: no API key is set for the anthropic provider (QHORUS_LLM_API_KEY or ANTHROPIC_API_KEY)"]);

    await alice.post('/api/v1/channels', { name: 'big', summariser: 'tiered', summaryThreshold: MANUAL_ONLY });
    await postMany(alice, 'big', 21, (i) => (i === 0 ? 'SEV1 everything is down' : `update ${i}`));
    await alice.post('/api/v1/channels/big/summary/refresh');
    const big = await waitForSummary(alice, 'big', (s) => s.version === 1, 'the tiered fallback summary');
    expect(big.annotations.tierFallback).toMatch(/^large->medium: .*no API key is set for the anthropic provider \(QHORUS_LLM_API_KEY or ANTHROPIC_API_KEY\)/);
    expect(big.annotations[INCIDENT_KEYS.severity]).toBe('SEV1');
    expect(callsFor('big').map((c) => c.items.length)).toEqual([21]);
  });

  it('thread summaries run the same injected CONTENT_SUMMARISER', async () => {
    await alice.post('/api/v1/channels', { name: 'war-room', summaryThreshold: MANUAL_ONLY });
    await alice.post('/api/v1/channels/war-room/messages', { type: 'COMMAND', content: 'SEV2: roll back the deploy', correlationId: 'rollback', target: 'bob' });
    await bob.post('/api/v1/channels/war-room/messages', { type: 'DONE', content: 'rolled back, resolved', correlationId: 'rollback' });
    const thread = await waitFor(async () => {
      const res = await alice.get('/api/v1/channels/war-room/threads/rollback/summary');
      return res.status === 200 ? res.body : null;
    }, 'the thread summary');
    expect(thread.text).toMatch(/^Incident status: RESOLVED \(SEV2\)/);
    expect(JSON.parse(thread.annotations[INCIDENT_KEYS.responders])).toEqual(['alice', 'bob']);
    expect((await getSummary(alice, 'war-room')).version).toBe(0);
  });
});
