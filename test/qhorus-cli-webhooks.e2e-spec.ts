import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { waitFor } from './support/http';
import { ensureServiceBuilt } from './support/process-harness';
import { startTestApp, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const ROOT = resolve(__dirname, '..');
const BIN = resolve(ROOT, 'bin/qhorus.js');

/** Runs `qhorus …` as a user would: the package's bin, a fresh process. */
function qhorus(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }, (err, stdout, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('qhorus webhook add|ls|test|deliveries|rm', () => {
  let t: TestApp;
  let rx: WebhookReceiver;
  let env: Record<string, string>;

  beforeAll(async () => {
    await ensureServiceBuilt(); // the same build compiles the CLI
    t = await startTestApp('cli-webhooks', { inProcessQueue: true, env: { QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QHORUS_WEBHOOK_POLL_MS: '100' } });
    rx = await new WebhookReceiver().start();
    const dana = await t.agent('dana');
    env = { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: dana.token! };
  });
  afterAll(async () => {
    await t?.close();
    await rx?.stop();
  });

  it('adds a hook (id and secret printed once), lists it, tests it, shows its deliveries and removes it', async () => {
    const added = await qhorus(['webhook', 'add', rx.url, '--event', 'message.addressed,thread.closed', '-c', 'ops'], env);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const [id, secret] = added.stdout.trim().split('\t');
    expect(id).toMatch(/^wh_/);
    expect(secret).toMatch(/^whsec_/);

    const ls = await qhorus(['webhook', 'ls'], env);
    expect(ls.stdout).toBe(`${id}\tdana\t${rx.url}\tmessage.addressed,thread.closed\tops\tenabled\n`);
    const json = JSON.parse((await qhorus(['webhook', 'ls', '--json'], env)).stdout);
    expect(json).toEqual((await t.admin.get('/api/v1/webhooks')).body);
    expect(JSON.stringify(json)).not.toContain(secret);

    const tested = await qhorus(['webhook', 'test', id], env);
    expect(tested.code).toBe(0);
    const eventId = tested.stdout.trim();
    const [got] = await waitFor(async () => rx.received.length > 0 && rx.received, 'the test event');
    expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({ type: 'webhook.test' });
    const deliveries = await waitFor(async () => {
      const out = (await qhorus(['webhook', 'deliveries', id], env)).stdout;
      return out.includes(eventId) && out;
    }, 'the logged attempt');
    expect(deliveries).toMatch(new RegExp(`^\\S+\\t${eventId}\\twebhook\\.test\\t#1\\t200\\t\\d+ms\\t\\n$`));

    expect(await qhorus(['webhook', 'rm', id], env)).toMatchObject({ code: 0, stdout: `deleted ${id}\n` });
    const again = await qhorus(['webhook', 'rm', id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Webhook 'wh_\w+' not found/);
  });

  it('names a refused URL and an unknown event', async () => {
    const privateUrl = await qhorus(['webhook', 'add', 'http://192.168.0.10/hook'], env);
    expect(privateUrl.code).toBe(1);
    expect(privateUrl.stderr).toMatch(/192\.168\.0\.10.*private/);
    const badEvent = await qhorus(['webhook', 'add', rx.url, '-e', 'message.sent'], env);
    expect(badEvent.code).toBe(1);
    expect(badEvent.stderr).toMatch(/unknown event 'message\.sent'/);
  });
});
