import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiClient } from '../support/http';
import { startAnotherInstance, startTestApp, TestApp } from '../support/test-app';

const BURST = 20;
const RATE_PER_SECOND = 1;
const LEASE = 5;
const REQUESTS = 3 * BURST;
const LIMITS = { QHORUS_RATE_LIMIT_BURST: String(BURST), QHORUS_RATE_LIMIT_PER_SECOND: String(RATE_PER_SECOND), QHORUS_RATE_LIMIT_LEASE: String(LEASE) };

/**
 * Issue 14 item 4: with Redis, N instances keep ONE rate per agent (tokens leased from a shared
 * bucket in chunks); without Redis each instance keeps its own (documented in docs/reliability.md).
 */
describe('shared rate limit: two instances on one Redis allow one agent its rate once, not twice', () => {
  let t: TestApp;
  let second: NestFastifyApplication;
  let onA: ApiClient, onB: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('sharedrate', { env: LIMITS });
    const b = await startAnotherInstance(t, { env: LIMITS });
    second = b.app;
    onA = await t.agent('alice');
    onB = new ApiClient(b.baseUrl, onA.token);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it(`lets ${REQUESTS} requests alternating between the instances through at the shared rate only`, async () => {
    const started = Date.now();
    const answers = [];
    for (let i = 0; i < REQUESTS; i++) answers.push(await (i % 2 === 0 ? onA : onB).get('/api/v1/channels'));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const allowed = answers.filter((r) => r.status === 200).length;
    const refused = answers.filter((r) => r.status === 429);
    expect(allowed + refused.length).toBe(REQUESTS);
    // One bucket: the burst plus what refilled meanwhile. Per-instance buckets would have allowed 2 × BURST.
    expect(allowed).toBeLessThanOrEqual(BURST + Math.ceil(elapsedSeconds * RATE_PER_SECOND));
    // Leased tokens an instance did not get to use are the only loss: at most a lease per instance.
    expect(allowed).toBeGreaterThanOrEqual(BURST - 2 * LEASE);
    expect(refused.every((r) => Number(r.headers.get('retry-after')) >= 1 && r.body.statusCode === 429)).toBe(true);
    // Both instances refuse: the bucket they share is empty for each of them.
    expect(new Set(answers.map((r, i) => (r.status === 429 ? i % 2 : -1)).filter((x) => x >= 0))).toEqual(new Set([0, 1]));
  });

  it('keeps the agents apart: another agent still has its whole burst', async () => {
    const bob = await t.agent('bob');
    const answers = await Promise.all(Array.from({ length: BURST / 2 }, (_, i) => (i % 2 === 0 ? bob : onB.as(bob.token)).get('/api/v1/channels')));
    expect(answers.every((r) => r.status === 200)).toBe(true);
  });
});
