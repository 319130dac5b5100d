import { Client } from 'pg';
import { ApiClient, waitFor } from './support/http';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

/**
 * Issue 30: a post or summary writes its webhook outbox row only when some enabled hook may hear
 * of it (common/webhook-outbox.ts), so 1,000 hooks on other channels cost a post a few index
 * probes, not an outbox row and a fan-out. On an API-only instance (no worker takes the rows)
 * every row written stays for the test to read; a worker started at the end then delivers them.
 */
describe('the webhook outbox is written when, and only when, a hook may hear of the event', () => {
  let t: TestApp;
  let db: Client;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, dave: ApiClient, erin: ApiClient;
  let rx: WebhookReceiver;

  const outbox = async () =>
    (await db.query<{ kind: string; channel: string; seq: string }>(`SELECT o.kind, c.name AS channel, o.seq FROM webhook_outbox o JOIN channels c ON c.id = o.channel_id ORDER BY o.id`)).rows.map(
      (r) => `${r.kind} ${r.channel} ${r.seq}`,
    );
  const subscribe = async (who: ApiClient, body: Record<string, unknown>) => {
    const res = await who.post('/api/v1/webhooks', { url: rx.url, ...body });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  /** Posts, and says what the outbox gained by it. */
  const posted = async (who: ApiClient, channel: string, body: Record<string, unknown>) => {
    const before = (await outbox()).length;
    const res = await who.post(`/api/v1/channels/${channel}/messages`, { type: 'STATUS', content: 'x', ...body });
    expect(res.status).toBe(201);
    return { seq: res.body.seq as number, correlationId: res.body.correlationId as string | undefined, written: (await outbox()).slice(before) };
  };

  beforeAll(async () => {
    rx = await new WebhookReceiver().start();
    t = await startTestApp('whaudience', { env: { QHORUS_ROLE: 'api', QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QHORUS_WEBHOOK_POLL_MS: '100' } });
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    [alice, bob, carol, dave, erin] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'erin'].map((n) => t.agent(n)));
    for (const name of ['quiet', 'heard-posted', 'heard-addressed', 'heard-closed', 'heard-summary']) {
      expect((await alice.post('/api/v1/channels', { name, summaryThreshold: 10_000 })).status).toBe(201);
    }
    await subscribe(bob, { events: ['message.posted'], channels: ['heard-posted'] });
    await subscribe(carol, { events: ['message.addressed'] });
    await subscribe(dave, { events: ['message.addressed'], channels: ['heard-addressed'] });
    await subscribe(alice, { events: ['thread.closed'], channels: ['heard-closed'] });
    await subscribe(erin, { events: ['summary.updated'], channels: ['heard-summary'] });
  });

  afterAll(async () => {
    await db?.end();
    await t?.close();
    await rx?.stop();
  });

  it('skips the posts no hook can hear of', async () => {
    expect((await posted(alice, 'quiet', {})).written).toEqual([]);
    expect((await posted(alice, 'quiet', { target: 'bob' })).written).toEqual([]); // bob's hook is for message.posted elsewhere
    expect((await posted(alice, 'quiet', { target: 'dave' })).written).toEqual([]); // dave's addressed hook is for another channel
    expect((await posted(alice, 'quiet', { correlationId: 'q-1' })).written).toEqual([]); // the thread.closed hook is for another channel
    expect((await posted(alice, 'heard-addressed', { target: 'erin' })).written).toEqual([]); // erin has no addressed hook
    expect((await posted(alice, 'heard-closed', {})).written).toEqual([]); // no thread to close
    expect((await posted(alice, 'heard-posted', { type: 'EVENT', content: '{}' })).written).toEqual([]); // telemetry is never announced
    expect((await alice.put('/api/v1/channels/quiet/summary', { text: 'nobody listens' })).status).toBe(200);
    expect(await outbox()).toEqual([]);
  });

  it('writes the ones some hook may hear of: broadcast on its channel, addressed to a hooked agent, a possible thread close, a summary', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['heard-posted', {}],
      ['quiet', { target: 'carol' }], // carol's addressed hook has no channel filter
      ['heard-addressed', { target: 'dave' }],
      ['heard-closed', { correlationId: 'c-1' }],
    ];
    for (const [channel, body] of cases) {
      const { seq, written } = await posted(erin, channel, body);
      expect(written).toEqual([`message ${channel} ${seq}`]);
    }
    // A request and the answer that closes its thread: both may close a thread, so both are written.
    const query = await posted(alice, 'heard-closed', { type: 'QUERY', content: 'done?' });
    const answer = await posted(erin, 'heard-closed', { type: 'RESPONSE', content: 'yes', correlationId: query.correlationId });
    expect([...query.written, ...answer.written]).toEqual([`message heard-closed ${query.seq}`, `message heard-closed ${answer.seq}`]);

    const before = (await outbox()).length;
    const summary = await alice.put('/api/v1/channels/heard-summary/summary', { text: 'somebody listens' });
    expect(summary.status).toBe(200);
    expect((await outbox()).slice(before)).toEqual([`summary heard-summary ${summary.body.version}`]);
  });

  it('a hook without a channel filter hears every channel; once deleted, or disabled, nothing is written for it', async () => {
    const hook = await subscribe(t.admin, { events: ['message.posted'] });
    const heard = await posted(alice, 'quiet', {});
    expect(heard.written).toEqual([`message quiet ${heard.seq}`]);
    expect((await t.admin.request('DELETE', `/api/v1/webhooks/${hook.id}`)).status).toBe(200);
    expect((await posted(alice, 'quiet', {})).written).toEqual([]);

    const disabled = await subscribe(t.admin, { events: ['message.posted'] });
    await db.query(`UPDATE webhooks SET disabled_at = now(), disabled_reason = 'test' WHERE id = $1`, [disabled.id]);
    expect((await posted(alice, 'quiet', {})).written).toEqual([]);
  });

  it('a worker delivers what was written: one delivery per hook that hears it (a thread opened is not closed; a deleted hook gets nothing)', async () => {
    const worker = await startAnotherInstance(t, { env: { QHORUS_ROLE: 'worker', QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QHORUS_WEBHOOK_POLL_MS: '100' } });
    try {
      await waitFor(async () => (await outbox()).length === 0 && rx.received.length >= 5, 'the outbox fanned out and delivered');
      await new Promise((r) => setTimeout(r, 500));
      const got = rx.received.map((r) => `${r.json.type} ${r.json.data.channel}`).sort();
      expect(got).toEqual(
        [
          'message.addressed heard-addressed',
          'message.addressed quiet',
          'message.posted heard-posted',
          'thread.closed heard-closed',
          'summary.updated heard-summary',
        ].sort(),
      );
    } finally {
      await worker.app.close();
    }
  });
});
