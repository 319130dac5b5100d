import { Webhook } from 'standardwebhooks';
import { Database } from '../apps/channel-service/src/database/database';
import { WebhookHostResolver } from '../apps/channel-service/src/webhooks/webhook-host-resolver';
import { ApiClient, waitFor } from './support/http';
import { connectMcp } from './support/mcp-client';
import { parsePrometheusText, sampleValue } from './support/prometheus-text';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';
import { ReceivedWebhook, WebhookReceiver } from './support/webhook-receiver';

/** Short retries so a test sees several attempts; loopback allowed (the receivers live there). */
const WEBHOOK_TEST_ENV = {
  QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
  QHORUS_WEBHOOK_BACKOFF_MIN_MS: '100',
  QHORUS_WEBHOOK_BACKOFF_MAX_MS: '400',
  QHORUS_WEBHOOK_POLL_MS: '100',
  QHORUS_WEBHOOK_TIMEOUT_MS: '2000',
  QHORUS_WEBHOOK_LEASE_MS: '3000',
};

/** What a hook owner sees of the channel's messages, by seq (the payload must be exactly this). */
async function messagesBySeq(client: ApiClient, channel: string): Promise<Map<number, unknown>> {
  const res = await client.get(`/api/v1/channels/${channel}/messages?limit=1000`);
  return new Map((res.body as { seq: number }[]).map((m) => [m.seq, m]));
}

const verify = (secret: string, r: ReceivedWebhook) => new Webhook(secret).verify(r.body, r.headers);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhooks (DESIGN §11)', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (responder?: ConstructorParameters<typeof WebhookReceiver>[0]) => {
    const r = await new WebhookReceiver(responder).start();
    receivers.push(r);
    return r;
  };
  const subscribe = async (who: ApiClient, body: Record<string, unknown>) => {
    const res = await who.post('/api/v1/webhooks', body);
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const post = (who: ApiClient, channel: string, body: Record<string, unknown>) => who.post(`/api/v1/channels/${channel}/messages`, body);

  beforeAll(async () => {
    t = await startTestApp('webhooks', { env: WEBHOOK_TEST_ENV });
    [alice, bob, carol] = await Promise.all([t.agent('alice'), t.agent('bob'), t.agent('carol')]);
    expect((await alice.post('/api/v1/channels', { name: 'open', summaryThreshold: 10_000 })).status).toBe(201);
    expect((await alice.post('/api/v1/channels', { name: 'secret', members: ['alice', 'bob'], summaryThreshold: 10_000 })).status).toBe(201);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  it('delivers message.posted signed per Standard Webhooks, the payload as the REST API shows the message', async () => {
    const rx = await receiver();
    const hook = await subscribe(bob, { url: rx.url, events: ['message.posted'], channels: ['open'] });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const got = await bob.get(`/api/v1/webhooks/${hook.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('secret');

    const sent = await post(alice, 'open', { content: 'hello hooks', topic: 'greetings', metadata: { k: 1 } });
    const [r] = await waitFor(async () => rx.received.length > 0 && rx.received, 'the delivery');
    const verified = verify(hook.secret, r) as { type: string; timestamp: string; data: unknown };
    expect(verified.type).toBe('message.posted');
    expect(verified.data).toEqual((await messagesBySeq(bob, 'open')).get(sent.body.seq));
    expect(r.headers['webhook-id']).toMatch(/^msg_/);
    // A wrong secret does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(r.body, r.headers)).toThrow();
  });

  it('message.addressed reaches the target only, including a HANDOFF to it', async () => {
    const rx = await receiver();
    await subscribe(carol, { url: rx.url, events: ['message.addressed'] });
    await post(alice, 'open', { type: 'STATUS', content: 'for nobody in particular' });
    const direct = await post(alice, 'open', { type: 'COMMAND', content: 'carol, do it', target: 'carol' });
    const handoff = await post(bob, 'open', { type: 'HANDOFF', content: 'yours', target: 'carol', correlationId: 'h-1' });
    await waitFor(async () => rx.received.length >= 2, 'two addressed deliveries');
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received.map((r) => [r.json.type, r.json.data.seq])).toEqual(
      expect.arrayContaining([
        ['message.addressed', direct.body.seq],
        ['message.addressed', handoff.body.seq],
      ]),
    );
    expect(rx.received).toHaveLength(2);
  });

  it('thread.closed reaches the thread opener, with the message that closed it', async () => {
    const rx = await receiver();
    await subscribe(alice, { url: rx.url, events: ['thread.closed'], channels: ['open'] });
    const query = await post(alice, 'open', { type: 'QUERY', content: 'is it done?' });
    const answer = await post(bob, 'open', { type: 'RESPONSE', content: 'yes', correlationId: query.body.correlationId });
    const [r] = await waitFor(async () => rx.ofType('thread.closed').length > 0 && rx.ofType('thread.closed'), 'thread.closed');
    expect(r.json.data).toMatchObject({ seq: answer.body.seq, correlationId: query.body.correlationId, type: 'RESPONSE' });
  });

  it('summary.updated carries the summary as GET …/summary shows it', async () => {
    const rx = await receiver();
    await subscribe(bob, { url: rx.url, events: ['summary.updated'], channels: ['open'] });
    expect((await alice.put('/api/v1/channels/open/summary', { text: 'A hand-written state.' })).status).toBe(200);
    const [r] = await waitFor(async () => rx.ofType('summary.updated').length > 0 && rx.ofType('summary.updated'), 'summary.updated');
    const now = await bob.get('/api/v1/channels/open/summary');
    expect(r.json.data).toMatchObject({ channel: 'open', text: 'A hand-written state.', version: now.body.version });
  });

  it('a receiver answering 500 twice gets three attempts with one webhook-id, all logged', async () => {
    const rx = await receiver((_r, nth) => (nth <= 2 ? 500 : 204));
    const hook = await subscribe(bob, { url: rx.url, events: ['message.posted'], channels: ['open'], types: ['DONE'] });
    await post(alice, 'open', { type: 'STATUS', content: 'filtered out by types' });
    await post(alice, 'open', { type: 'DONE', content: 'finished' });
    await waitFor(async () => rx.received.length >= 3, 'three attempts', 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toHaveLength(3);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    for (const r of rx.received) expect(verify(hook.secret, r)).toMatchObject({ type: 'message.posted', data: { type: 'DONE' } });
    const log = await waitFor(async () => {
      const res = await bob.get(`/api/v1/webhooks/${hook.id}/deliveries`);
      return res.body.length === 3 && res.body;
    }, 'three logged attempts');
    expect(log.map((a: any) => [a.attempt, a.status])).toEqual([
      [3, 204],
      [2, 500],
      [1, 500],
    ]);
    expect(log[1]).toMatchObject({ eventId: rx.received[0].headers['webhook-id'], type: 'message.posted', error: 'HTTP 500' });
    expect(log[0]).not.toHaveProperty('error');
    expect((await bob.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=1`)).body).toHaveLength(1);
  });

  it('410 Gone disables the hook, with the reason on GET, and nothing more is sent', async () => {
    const rx = await receiver(() => 410);
    const hook = await subscribe(bob, { url: rx.url, events: ['message.posted'], channels: ['open'] });
    await post(alice, 'open', { content: 'first' });
    const disabled = await waitFor(async () => {
      const res = await bob.get(`/api/v1/webhooks/${hook.id}`);
      return res.body.disabledAt && res.body;
    }, 'the hook disabled');
    expect(disabled.disabledReason).toMatch(/410/);
    await post(alice, 'open', { content: 'second' });
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.received).toHaveLength(1);
    expect((await bob.post(`/api/v1/webhooks/${hook.id}/test`)).status).toBe(409);
  });

  it("a private channel's message never reaches a non-member's hook; a public one does; the admin's hook gets both", async () => {
    const rx = await receiver();
    const adminRx = await receiver();
    await subscribe(carol, { url: rx.url, events: ['message.posted', 'message.addressed'] });
    await subscribe(t.admin, { url: adminRx.url, events: ['message.posted'], channels: ['secret', 'open'] });
    const hidden = await post(alice, 'secret', { content: 'members only', target: 'carol' });
    const visible = await post(alice, 'open', { content: 'for all' });
    await waitFor(async () => rx.received.some((r) => r.json.data.seq === visible.body.seq && r.json.data.channel === 'open'), 'the public message');
    const seen = await waitFor(async () => adminRx.received.length >= 2 && adminRx.received, "both messages at the admin's hook");
    expect(seen.map((r) => [r.json.data.channel, r.json.data.seq]).sort()).toEqual([
      ['open', visible.body.seq],
      ['secret', hidden.body.seq],
    ]);
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received.filter((r) => r.json.data.channel === 'secret')).toEqual([]);
  });

  it('checks access again at every attempt: a member removed before the retry gets nothing more', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'shrinking', members: ['alice', 'bob'], summaryThreshold: 10_000 })).status).toBe(201);
    const rx = await receiver(() => 500);
    const hook = await subscribe(bob, { url: rx.url, events: ['message.posted'], channels: ['shrinking'] });
    await post(alice, 'shrinking', { content: 'for the members' });
    // >= 1: the retries come every 100 ms or so, a poll may see the second already.
    await waitFor(async () => rx.received.length >= 1, 'the first (failed) attempt');
    expect((await alice.patch('/api/v1/channels/shrinking', { members: ['alice'] })).status).toBe(200);
    const log = await waitFor(async () => {
      const res = await t.admin.get(`/api/v1/webhooks/${hook.id}/deliveries`);
      return res.body.some((a: any) => a.error?.startsWith('not sent')) && res.body;
    }, 'the retry dropped');
    expect(log[0].error).toBe("not sent: the owner may no longer read channel 'shrinking'");
    // Nothing after the drop (an attempt in flight at the PATCH may have come before it).
    const received = rx.received.length;
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.received).toHaveLength(received);
  });

  it("a revoked agent's hook gets nothing", async () => {
    const dave = await t.agent('dave');
    const rx = await receiver();
    const control = await receiver();
    await subscribe(dave, { url: rx.url, events: ['message.posted'], channels: ['open'] });
    await subscribe(alice, { url: control.url, events: ['message.posted'], channels: ['open'] });
    expect((await t.admin.request('DELETE', '/api/v1/agents/dave')).status).toBe(200);
    await post(bob, 'open', { content: 'after the revocation' });
    await waitFor(async () => control.received.length > 0, 'the control hook');
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received).toEqual([]);
  });

  it('POST /webhooks/{id}/test sends a signed webhook.test with the id it answered', async () => {
    const rx = await receiver();
    const hook = await subscribe(alice, { url: rx.url, events: ['summary.updated'], channels: ['open'] });
    const res = await alice.post(`/api/v1/webhooks/${hook.id}/test`);
    expect(res.status).toBe(202);
    const [r] = await waitFor(async () => rx.received.length > 0 && rx.received, 'the test event');
    expect(r.headers['webhook-id']).toBe(res.body.eventId);
    expect(verify(hook.secret, r)).toMatchObject({ type: 'webhook.test', data: { webhookId: hook.id } });
  });

  it("an agent sees and manages its own hooks, the admin all; another's is a 404", async () => {
    const rx = await receiver();
    const hook = await subscribe(carol, { url: rx.url, events: ['message.posted'] });
    const bobs = await bob.get('/api/v1/webhooks');
    expect(bobs.body.every((h: { owner: string }) => h.owner === 'bob')).toBe(true);
    expect((await t.admin.get('/api/v1/webhooks')).body.map((h: { id: string }) => h.id)).toContain(hook.id);
    for (const [method, path] of [
      ['GET', `/api/v1/webhooks/${hook.id}`],
      ['GET', `/api/v1/webhooks/${hook.id}/deliveries`],
      ['POST', `/api/v1/webhooks/${hook.id}/test`],
      ['DELETE', `/api/v1/webhooks/${hook.id}`],
    ]) {
      const res = await bob.request(method, path, method === 'POST' ? {} : undefined);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    expect((await t.admin.get(`/api/v1/webhooks/${hook.id}`)).status).toBe(200);
    const deleted = await carol.request('DELETE', `/api/v1/webhooks/${hook.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: hook.id, owner: 'carol' });
    expect(deleted.body).not.toHaveProperty('secret');
    expect((await carol.get(`/api/v1/webhooks/${hook.id}`)).status).toBe(404);
    expect((await carol.get('/api/v1/webhooks/wh_nonexistent')).status).toBe(404);
  });

  it("a revoked agent's pending retries are dropped, not sent", async () => {
    const frank = await t.agent('frank');
    const rx = await receiver(() => 500);
    const hook = await subscribe(frank, { url: rx.url, events: ['message.posted'], channels: ['open'] });
    await post(alice, 'open', { content: 'frank will be gone before the retry' });
    // >= 1: the retries come every 100 ms or so, a poll may see the second already.
    await waitFor(async () => rx.received.length >= 1, 'the first (failed) attempt');
    expect((await t.admin.request('DELETE', '/api/v1/agents/frank')).status).toBe(200);
    const log = await waitFor(async () => {
      const res = await t.admin.get(`/api/v1/webhooks/${hook.id}/deliveries`);
      return res.body.some((a: any) => a.error?.startsWith('not sent')) && res.body;
    }, 'the retry dropped');
    expect(log[0]).toMatchObject({ status: null, error: "not sent: the owner 'frank' was revoked" });
    const received = rx.received.length;
    await sleep(800);
    expect(rx.received).toHaveLength(received);
  });

  it('does not follow a redirect: a 3xx is a failed attempt, retried, and the Location never hears of it', async () => {
    const elsewhere = await receiver();
    const rx = await receiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    const hook = await subscribe(bob, { url: rx.url, events: ['message.posted'], channels: ['open'] });
    await post(alice, 'open', { content: 'stay where you are' });
    const log = await waitFor(async () => {
      const res = await bob.get(`/api/v1/webhooks/${hook.id}/deliveries`);
      return res.body.length >= 2 && res.body;
    }, 'two attempts');
    expect(log.slice(0, 2).map((a: any) => [a.status, a.error])).toEqual([
      [307, 'HTTP 307'],
      [307, 'HTTP 307'],
    ]);
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(elsewhere.received).toEqual([]);
    expect((await bob.request('DELETE', `/api/v1/webhooks/${hook.id}`)).status).toBe(200);
  });

  it('resolves the host again at every delivery and connects to the address it checked (a name that moves to a private address is refused)', async () => {
    // DNS stands in: the name exists only here, so a delivery that arrives was sent to the checked address.
    let answer = '127.0.0.1';
    const lookups = jest.spyOn(t.app.get(WebhookHostResolver), 'resolve').mockImplementation(async (host) => {
      if (host !== 'hooks.rebind.test') throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return [{ address: answer, family: 4 }];
    });
    try {
      const rx = await receiver();
      const url = `http://hooks.rebind.test:${rx.listeningPort}/hook`;
      const hook = await subscribe(bob, { url, events: ['message.posted'], channels: ['open'] });
      expect(lookups).toHaveBeenCalledTimes(1); // at registration
      const first = await post(alice, 'open', { content: 'to 127.0.0.1' });
      const [got] = await waitFor(async () => rx.received.length === 1 && rx.received, 'the first delivery');
      expect(got.json.data.seq).toBe(first.body.seq);
      expect(got.headers.host).toBe(`hooks.rebind.test:${rx.listeningPort}`);
      expect(lookups.mock.calls.length).toBeGreaterThanOrEqual(2); // and again to deliver

      answer = '10.0.0.7'; // the name now points inside
      const second = await post(alice, 'open', { content: 'not to 10.0.0.7' });
      const refused = await waitFor(async () => {
        const res = await bob.get(`/api/v1/webhooks/${hook.id}/deliveries`);
        return res.body.length >= 3 && res.body;
      }, 'two refused attempts');
      expect(refused[0]).toMatchObject({ status: null, error: expect.stringMatching(/hooks\.rebind\.test.*10\.0\.0\.7 is a private address/) });
      expect(rx.received).toHaveLength(1);

      answer = '127.0.0.1'; // back: the retry goes out, same id as the refused attempts
      const [, again] = await waitFor(async () => rx.received.length === 2 && rx.received, 'the retry after DNS came back');
      expect(again.json.data.seq).toBe(second.body.seq);
      expect(again.headers['webhook-id']).toBe(refused[0].eventId);
    } finally {
      lookups.mockRestore();
    }
  });

  it('counts attempts by outcome, disabled hooks and the delivery lag in /metrics', async () => {
    const samples = parsePrometheusText((await t.admin.get('/metrics')).body);
    // By now this file has delivered, failed (500 × 2), been answered 410 and dropped nothing it should send.
    expect(sampleValue(samples, 'qhorus_webhook_attempts_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(5);
    expect(sampleValue(samples, 'qhorus_webhook_attempts_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(2);
    expect(sampleValue(samples, 'qhorus_webhook_attempts_total', { outcome: 'gone' })).toBe(1);
    expect(sampleValue(samples, 'qhorus_webhooks_disabled_total', { reason: 'gone' })).toBe(1);
    expect(sampleValue(samples, 'qhorus_webhook_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(5);
  });

  it('the MCP server tells an agent how it is reached when it is not running', async () => {
    const mcp = await connectMcp(t.baseUrl, alice.token);
    try {
      expect(mcp.getInstructions()).toMatch(/POST \/api\/v1\/webhooks.*qhorus webhook add.*qhorus inbox --wait/s);
    } finally {
      await mcp.close();
    }
  });

  describe('bad input is a 400 naming what is wrong', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['not http(s)', { url: 'ftp://example.com/x', events: ['message.posted'] }, /url 'ftp:\/\/example\.com\/x' must be http or https, not ftp/],
      ['a private address', { url: 'http://10.1.2.3/x', events: ['message.posted'] }, /url 'http:\/\/10\.1\.2\.3\/x' is refused: 10\.1\.2\.3 is a private address/],
      ['cloud metadata through IPv4-mapped IPv6', { url: 'http://[::ffff:169.254.169.254]/', events: ['message.posted'] }, /169\.254\.169\.254.*linkLocal/],
      ['loopback in decimal', { url: 'http://2130706434/', events: ['message.posted'] }, /127\.0\.0\.2.*loopback/],
      ['an unresolvable host', { url: 'http://no-such-host.invalid/', events: ['message.posted'] }, /url 'http:\/\/no-such-host\.invalid\/': host 'no-such-host\.invalid' does not resolve/],
      ['not a URL', { url: 'hooks please', events: ['message.posted'] }, /hooks please.*not a valid URL/],
      ['an unknown event', { url: 'http://127.0.0.1/x', events: ['message.posted', 'message.deleted'] }, /unknown event 'message\.deleted'/],
      ['no events', { url: 'http://127.0.0.1/x', events: [] }, /events must name at least one/],
      ['events missing', { url: 'http://127.0.0.1/x' }, /events/],
      ['an unknown type', { url: 'http://127.0.0.1/x', events: ['message.posted'], types: ['EVENT'] }, /unknown type 'EVENT'/],
      ['a bad channel name', { url: 'http://127.0.0.1/x', events: ['message.posted'], channels: ['Not A Slug'] }, /channel/],
      ['an unknown field', { url: 'http://127.0.0.1/x', events: ['message.posted'], secret: 'mine' }, /secret/],
    ];
    it.each(cases)('%s', async (_what, body, message) => {
      const res = await alice.post('/api/v1/webhooks', body);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
    });

    it('a bad limit on deliveries', async () => {
      const rx = await receiver();
      const hook = await subscribe(alice, { url: rx.url, events: ['message.posted'] });
      expect((await alice.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=0`)).status).toBe(400);
      expect((await alice.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=x`)).status).toBe(400);
      // Above the attempts kept (QHORUS_WEBHOOK_LOG_KEEP, 100): a 400 naming the maximum, as the document states.
      const over = await alice.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=101`);
      expect(over.body).toMatchObject({ statusCode: 400, details: [{ field: 'limit', problems: ['must be at most 100 (QHORUS_WEBHOOK_LOG_KEEP)'] }] });
      expect((await alice.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=100`)).status).toBe(200);
    });
  });
});

describe('webhooks on the in-process queue (no Redis)', () => {
  let t: TestApp;
  let rx: WebhookReceiver;

  beforeAll(async () => {
    t = await startTestApp('webhooks-inproc', { env: { ...WEBHOOK_TEST_ENV, QHORUS_MAX_WEBHOOKS_PER_AGENT: '2' }, inProcessQueue: true });
    rx = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
  });

  it('delivers every message of a batch, once each', async () => {
    const alice = await t.agent('alice');
    await alice.post('/api/v1/channels', { name: 'c' });
    await t.admin.post('/api/v1/webhooks', { url: rx.url, events: ['message.posted'] });
    const batch = await alice.post('/api/v1/channels/c/messages/batch', { messages: [{ content: 'a' }, { content: 'b' }, { type: 'EVENT', content: 'telemetry' }, { content: 'c' }] });
    expect(batch.status).toBe(201);
    await waitFor(async () => rx.received.length >= 3, 'three deliveries');
    await new Promise((r) => setTimeout(r, 500));
    expect(rx.received.map((r) => r.json.data.content).sort()).toEqual(['a', 'b', 'c']);
  });

  it('refuses an agent its third hook with QHORUS_MAX_WEBHOOKS_PER_AGENT=2 (403 naming the quota); the admin is not limited', async () => {
    const erin = await t.agent('erin');
    const body = { url: rx.url, events: ['message.addressed'] };
    expect((await erin.post('/api/v1/webhooks', body)).status).toBe(201);
    expect((await erin.post('/api/v1/webhooks', body)).status).toBe(201);
    const third = await erin.post('/api/v1/webhooks', body);
    expect(third.status).toBe(403);
    expect(third.body.message).toMatch(/QHORUS_MAX_WEBHOOKS_PER_AGENT/);
    for (let i = 0; i < 3; i++) expect((await t.admin.post('/api/v1/webhooks', body)).status).toBe(201);
  });
});

describe('webhooks at their limits: give-up, timeout, bounded answer, bounded log, kept-alive connections', () => {
  const GIVE_UP_MS = 1_500;
  const TIMEOUT_MS = 1_000;
  const LOG_KEEP = 3;
  const MAX_RESPONSE_BYTES = 1024;
  let t: TestApp;
  let alice: ApiClient;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (responder?: ConstructorParameters<typeof WebhookReceiver>[0], host?: string, port?: number) => {
    const r = await new WebhookReceiver(responder, host).start(port);
    receivers.push(r);
    return r;
  };
  const hookOn = async (url: string, channel: string) => {
    const res = await t.admin.post('/api/v1/webhooks', { url, events: ['message.posted'], channels: [channel] });
    expect(res.status).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const deliveries = async (id: string) => (await t.admin.get(`/api/v1/webhooks/${id}/deliveries`)).body as any[];

  beforeAll(async () => {
    t = await startTestApp('webhooks-limits', {
      inProcessQueue: true,
      env: {
        ...WEBHOOK_TEST_ENV,
        QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,127.0.0.2', // two loopback hosts: a name can move between them
        QHORUS_WEBHOOK_BACKOFF_MIN_MS: '100',
        QHORUS_WEBHOOK_BACKOFF_MAX_MS: '300',
        QHORUS_WEBHOOK_GIVE_UP_MS: String(GIVE_UP_MS),
        QHORUS_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
        QHORUS_WEBHOOK_LOG_KEEP: String(LOG_KEEP),
        QHORUS_WEBHOOK_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES),
      },
    });
    alice = await t.agent('alice');
    for (const name of ['failing', 'slow', 'chatty', 'busy', 'kept', 'moved', 'stale']) expect((await alice.post('/api/v1/channels', { name, summaryThreshold: 10_000 })).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  it('disables a hook whose event still fails after QHORUS_WEBHOOK_GIVE_UP_MS, with the reason on GET; nothing more is sent', async () => {
    const rx = await receiver(() => 503);
    const hook = await hookOn(rx.url, 'failing');
    const sentAt = Date.now();
    await alice.post('/api/v1/channels/failing/messages', { content: 'never accepted' });
    const disabled = await waitFor(async () => {
      const res = await t.admin.get(`/api/v1/webhooks/${hook.id}`);
      return res.body.disabledAt && res.body;
    }, 'the hook disabled', 15_000);
    expect(disabled.disabledReason).toMatch(/^event msg_\w+ failed for \d+ s \(\d+ attempts\); last error: HTTP 503$/);
    expect(rx.received.length).toBeGreaterThanOrEqual(3); // retried meanwhile, same id
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Not before the give-up time: its last attempt came within it, the disabling right after.
    expect(Date.parse(disabled.disabledAt) - sentAt).toBeGreaterThanOrEqual(GIVE_UP_MS / 2);
    const received = rx.received.length;
    await alice.post('/api/v1/channels/failing/messages', { content: 'after the disabling' });
    await sleep(800);
    expect(rx.received).toHaveLength(received);
    const samples = parsePrometheusText((await t.admin.get('/metrics')).body);
    expect(sampleValue(samples, 'qhorus_webhooks_disabled_total', { reason: 'failing' })).toBe(1);
  });

  it('gives an attempt QHORUS_WEBHOOK_TIMEOUT_MS for the whole exchange: a receiver that never answers is a timed-out attempt, retried', async () => {
    const rx = await receiver((_r, nth) => (nth === 1 ? 'silent' : 200));
    const hook = await hookOn(rx.url, 'slow');
    const sent = await alice.post('/api/v1/channels/slow/messages', { content: 'take your time' });
    const log = await waitFor(async () => {
      const got = await deliveries(hook.id);
      return got.length === 2 && got;
    }, 'the timed-out attempt and its retry');
    expect(log[1]).toMatchObject({ attempt: 1, status: null, error: `timed out after ${TIMEOUT_MS} ms` });
    expect(log[1].durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(log[0]).toMatchObject({ attempt: 2, status: 200 });
    expect(rx.received.map((r) => r.json.data.seq)).toEqual([sent.body.seq, sent.body.seq]);
  });

  it('reads at most QHORUS_WEBHOOK_MAX_RESPONSE_BYTES of an answer: a 2xx with an endless body is delivered at once, not timed out', async () => {
    const rx = await receiver(() => ({ status: 200, endless: true }));
    const hook = await hookOn(rx.url, 'chatty');
    await alice.post('/api/v1/channels/chatty/messages', { content: 'say less' });
    const [attempt] = await waitFor(async () => {
      const got = await deliveries(hook.id);
      return got.length > 0 && got;
    }, 'the attempt');
    expect(attempt).toMatchObject({ attempt: 1, status: 200 });
    expect(attempt).not.toHaveProperty('error');
    expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS / 2);
    await sleep(500);
    expect(rx.received).toHaveLength(1);
  });

  it(`keeps the newest QHORUS_WEBHOOK_LOG_KEEP (${LOG_KEEP}) attempts of a hook, in the table as in the answer`, async () => {
    const rx = await receiver();
    const hook = await hookOn(rx.url, 'busy');
    for (let i = 0; i < 7; i++) {
      await alice.post('/api/v1/channels/busy/messages', { content: `event ${i}` });
      // One at a time, each logged before the next: the log's order is the receiver's.
      await waitFor(async () => rx.received.length === i + 1, `delivery ${i}`);
      await waitFor(async () => (await deliveries(hook.id)).some((a) => a.eventId === rx.received[i].headers['webhook-id']), `attempt ${i} logged`);
    }
    const log = await deliveries(hook.id);
    expect(log.map((a) => a.eventId)).toEqual(rx.received.slice(4).map((r) => r.headers['webhook-id']).reverse());
    expect((await t.admin.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=${LOG_KEEP}`)).body).toHaveLength(LOG_KEEP);
    const [{ n }] = await t.app.get(Database).query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_attempts WHERE webhook_id = $1', [hook.id]);
    expect(n).toBe(LOG_KEEP);
  });

  /** Posts into `channel` and waits until the receiver has `count` requests. */
  const deliverOne = async (channel: string, rx: WebhookReceiver, count: number) => {
    const sent = await alice.post(`/api/v1/channels/${channel}/messages`, { content: `for ${channel}` });
    await waitFor(async () => rx.received.length >= count, `request ${count} at ${rx.url}`);
    return sent.body.seq as number;
  };

  it('keeps the connection to a receiver alive between deliveries', async () => {
    const rx = await receiver();
    const hook = await hookOn(rx.url, 'kept');
    for (let i = 1; i <= 3; i++) await deliverOne('kept', rx, i);
    expect(rx.connections).toBe(1);
    await waitFor(async () => (await deliveries(hook.id)).length === 3, 'three logged attempts');
    expect((await deliveries(hook.id)).map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it('never reuses a kept connection once the name points to another address: the next delivery connects to the new one', async () => {
    let answer = '127.0.0.1';
    const lookups = jest.spyOn(t.app.get(WebhookHostResolver), 'resolve').mockImplementation(async () => [{ address: answer, family: 4 }]);
    try {
      const first = await receiver();
      const second = await receiver(undefined, '127.0.0.2', first.listeningPort); // the same port on another address
      await hookOn(`http://hooks.moving.test:${first.listeningPort}/hook`, 'moved');
      await deliverOne('moved', first, 1);
      await deliverOne('moved', first, 2); // on the kept connection
      expect(first.connections).toBe(1);
      answer = '127.0.0.2';
      const seq = await deliverOne('moved', second, 1);
      expect(second.received[0].json.data.seq).toBe(seq);
      await sleep(300);
      expect(first.received).toHaveLength(2);
    } finally {
      lookups.mockRestore();
    }
  });

  it('sends again at once on a fresh connection when the receiver had closed the kept one: one attempt, delivered, the same id', async () => {
    const rx = await receiver((_r, nth) => (nth === 2 ? 'reset' : 200));
    const hook = await hookOn(rx.url, 'stale');
    await deliverOne('stale', rx, 1);
    const seq = await deliverOne('stale', rx, 3); // the reset request, then the same on a new connection
    expect(rx.received.slice(1).map((r) => r.json.data.seq)).toEqual([seq, seq]);
    expect(rx.received[2].headers['webhook-id']).toBe(rx.received[1].headers['webhook-id']);
    expect(rx.connections).toBe(2);
    const log = await waitFor(async () => {
      const got = await deliveries(hook.id);
      return got.length === 2 && got;
    }, 'two logged attempts');
    expect(log.map((a) => [a.attempt, a.status, a.error])).toEqual([
      [1, 200, undefined],
      [1, 200, undefined],
    ]);
  });
});

describe.each([
  ['BullMQ, posted on an api instance', false],
  ['in-process', true],
])('webhooks woken by the post, not the poll (%s)', (_driver, inProcessQueue) => {
  /** Far longer than the test waits: only the wake-up can deliver in time. */
  const NO_POLL_ENV = { ...WEBHOOK_TEST_ENV, QHORUS_WEBHOOK_POLL_MS: '600000' };
  let t: TestApp;
  let rx: WebhookReceiver;
  let poster: ApiClient;
  let api: Awaited<ReturnType<typeof startAnotherInstance>> | null = null;

  beforeAll(async () => {
    t = await startTestApp('webhooks-wake', { env: NO_POLL_ENV, inProcessQueue });
    rx = await new WebhookReceiver().start();
    const alice = await t.agent('alice');
    await alice.post('/api/v1/channels', { name: 'c', summaryThreshold: 10_000 });
    expect((await t.admin.post('/api/v1/webhooks', { url: rx.url, events: ['message.posted'] })).status).toBe(201);
    // With Redis, posts go to an instance that runs no worker (started once a hook exists, which it
    // reads at start): only the BullMQ wake-up reaches t's deliverer.
    if (!inProcessQueue) api = await startAnotherInstance(t, { env: NO_POLL_ENV });
    poster = api ? new ApiClient(api.baseUrl, alice.token) : alice;
  });
  afterAll(async () => {
    await api?.app.close();
    await t?.close();
    await rx?.stop();
  });

  it('delivers each post within seconds', async () => {
    for (let i = 1; i <= 3; i++) {
      const sent = await poster.post('/api/v1/channels/c/messages', { content: `wake ${i}` });
      await waitFor(async () => rx.received.some((r) => r.json.data.seq === sent.body.seq), `post ${i}`, 5_000);
    }
  });
});

describe('a backlog keeps draining while posts no hook wants arrive (no poll to fall back on)', () => {
  let t: TestApp;
  let rx: WebhookReceiver;

  beforeAll(async () => {
    // One slot and a slow receiver: the backlog drains one delivery at a time, each finishing one
    // claiming the next; the poll is out of reach, so nothing else would claim it.
    t = await startTestApp('webhooks-backlog', { env: { ...WEBHOOK_TEST_ENV, QHORUS_WEBHOOK_POLL_MS: '600000', QHORUS_WEBHOOK_CONCURRENCY: '1' }, inProcessQueue: true });
    rx = await new WebhookReceiver(() => sleep(150).then(() => 200)).start();
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
  });

  it('delivers every event of the backlog', async () => {
    const alice = await t.agent('alice');
    for (const name of ['busy', 'other']) expect((await alice.post('/api/v1/channels', { name, summaryThreshold: 10_000 })).status).toBe(201);
    expect((await t.admin.post('/api/v1/webhooks', { url: rx.url, events: ['message.posted'], channels: ['busy'] })).status).toBe(201);
    const batch = await alice.post('/api/v1/channels/busy/messages/batch', { messages: Array.from({ length: 6 }, (_, i) => ({ content: `backlog ${i}` })) });
    expect(batch.status).toBe(201);
    let chatting = true;
    const chatter = (async () => {
      while (chatting) {
        await alice.post('/api/v1/channels/other/messages', { content: 'no hook wants this' });
        await sleep(15);
      }
    })();
    try {
      await waitFor(async () => rx.received.length >= 6, 'the six deliveries of the backlog', 10_000);
    } finally {
      chatting = false;
      await chatter;
    }
    expect(rx.received.map((r) => r.json.data.content).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `backlog ${i}`));
  });
});
