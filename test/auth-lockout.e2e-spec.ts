import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AgentsRepository } from '../apps/channel-service/src/auth/agents.repository';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

const FAILURE_BURST = 20;
const BOGUS = 200;
/** The address every request claims through the trusted (loopback) proxy: one NAT, say. */
const SHARED_ADDRESS = '203.0.113.77';
/** How an invalid token is answered from the locked address. */
const REFUSED = [401, 429];

async function call(baseUrl: string, token: string, address = SHARED_ADDRESS): Promise<number> {
  const res = await fetch(`${baseUrl}/api/v1/channels`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': address } });
  await res.arrayBuffer();
  return res.status;
}

/** Sends BOGUS distinct bogus tokens from the shared address; returns how many got each status. */
async function lockOut(baseUrl: string, label: string): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  for (let i = 0; i < BOGUS; i += 20) {
    const wave = await Promise.all(Array.from({ length: 20 }, (_, k) => call(baseUrl, `qh_bogus-${label}-${i + k}`)));
    for (const s of wave) statuses[s] = (statuses[s] ?? 0) + 1;
  }
  return statuses;
}

/**
 * Issue 28 item 3: failed authentications from one address (a NAT, a container network) never
 * lock out a valid token from it — one registered after the lockout, on another instance, or
 * first used after a restart — while bogus tokens still cost a bounded number of queries.
 */
describe('failed authentications never lock out a valid token', () => {
  let t: TestApp;
  let other: { app: NestFastifyApplication; baseUrl: string } | undefined;
  const env = { QHORUS_AUTH_FAILURE_BURST: String(FAILURE_BURST), QHORUS_AUTH_FAILURES_PER_SECOND: '1' };

  beforeAll(async () => {
    t = await startTestApp('auth-lockout', { env });
  });
  afterAll(async () => {
    await other?.app.close();
    await t?.close();
  });

  it('lets a token registered before, and a new agent registered after the lockout, through from the locked address', async () => {
    const before = await t.agent('before-lockout');
    const lookups = jest.spyOn(t.app.get(AgentsRepository), 'findNameByTokenHash');
    const statuses = await lockOut(t.baseUrl, 'a');
    expect(statuses[429]).toBeGreaterThan(BOGUS / 2);
    // Bogus tokens cost at most the failure burst (and its refill) in queries, not one each.
    expect(lookups.mock.calls.length).toBeLessThanOrEqual(FAILURE_BURST + 10);
    lookups.mockClear();
    expect(await call(t.baseUrl, `qh_bogus-a-${BOGUS + 1}`)).toBe(429);

    expect(await call(t.baseUrl, before.token!)).toBe(200);
    const after = await t.agent('after-lockout');
    expect(await call(t.baseUrl, after.token!)).toBe(200);
    const rotated = await t.admin.post('/api/v1/agents/before-lockout/token', {});
    expect(await call(t.baseUrl, rotated.body.token)).toBe(200);
    expect(lookups).not.toHaveBeenCalled(); // valid tokens were known without a query
    // The old token is no longer valid: refused like any unknown token (429 while the address is
    // over its limit; 401 if the failure bucket refilled a token meanwhile, at 1/s: a loaded machine).
    expect(REFUSED).toContain(await call(t.baseUrl, before.token!));
  });

  it('on another instance (a restart, a scaled-out one): tokens it never saw, and one registered elsewhere after its lockout, pass', async () => {
    const seen = await t.agent('seen-before-start');
    other = await startAnotherInstance(t, { env });
    const statuses = await lockOut(other.baseUrl, 'b');
    expect(statuses[429]).toBeGreaterThan(BOGUS / 2);
    expect(await call(other.baseUrl, seen.token!)).toBe(200);
    const registeredElsewhere = await t.agent('registered-on-the-first');
    expect(await call(other.baseUrl, registeredElsewhere.token!)).toBe(200);
    expect((await t.admin.request('DELETE', '/api/v1/agents/registered-on-the-first')).status).toBe(200);
    expect(REFUSED).toContain(await call(other.baseUrl, registeredElsewhere.token!)); // revoked everywhere at once
    expect(await call(other.baseUrl, registeredElsewhere.token!, '198.51.100.1')).toBe(401);
  });
});
