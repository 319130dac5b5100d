import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiClient, waitFor } from './support/http';
import { LongPollWaits } from '../apps/channel-service/src/message-store/long-poll-waits';
import { ensureServiceBuilt } from './support/process-harness';
import { startAnotherInstance, startTestApp, TestApp } from './support/test-app';

const ROOT = resolve(__dirname, '..');
const BIN = resolve(ROOT, 'bin/qhorus.js');
/** Long enough that an answer well before it was woken, not timed out. */
const LONG_WAIT_MS = 20_000;
/** Short enough for a test to sit through. */
const SHORT_WAIT_MS = 1_500;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `qhorus …` as a hook runs it: the package's bin in a fresh process, URL and token from the environment. */
function qhorus(args: string[], env: Record<string, string>): Promise<Run> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }, (err, stdout, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr, ms: Date.now() - started });
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** DESIGN §11 "Hooks for coding agents": the inbox long poll, and `qhorus inbox --wait` on it. */
describe('waiting on the inbox', () => {
  let t: TestApp;
  let second: { app: NestFastifyApplication; baseUrl: string };
  let alice: ApiClient, bob: ApiClient, mallory: ApiClient;
  let aliceToken: string;

  const post = (who: ApiClient, channel: string, body: Record<string, unknown>) => who.post(`/api/v1/channels/${channel}/messages`, body);
  const ask = async (channel: string, correlationId: string, content: string, target = 'alice') => {
    const res = await post(bob, channel, { type: 'QUERY', content, correlationId, target });
    expect(res.status).toBe(201);
    return res.body.seq as number;
  };

  beforeAll(async () => {
    await ensureServiceBuilt(); // the CLI runs from the build
    t = await startTestApp('inbox-wait'); // on Redis: a second instance hears the first's posts
    second = await startAnotherInstance(t);
    alice = await t.agent('alice');
    aliceToken = alice.token!;
    bob = await t.agent('bob');
    mallory = await t.agent('mallory');
    expect((await bob.post('/api/v1/channels', { name: 'work', summaryThreshold: 10_000 })).status).toBe(201);
    expect((await bob.post('/api/v1/channels', { name: 'secret', members: ['bob', 'alice'], summaryThreshold: 10_000 })).status).toBe(201);
  });
  afterAll(async () => {
    await second?.app.close();
    await t?.close();
  });

  describe('GET /inbox: ETag, If-None-Match and waitMs', () => {
    it('tags the inbox; the same tag is a 304 with no body, whatever the age of the obligations', async () => {
      await ask('work', 'tag-1', 'Is the tag stable?');
      const first = await alice.get('/api/v1/inbox');
      expect(first.status).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^"[\w-]+"$/);
      await sleep(1_100); // ageSeconds moves on; the tag must not
      const again = await alice.get('/api/v1/inbox', { 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.body).toBeNull();
      expect(again.headers.get('etag')).toBe(etag);
      expect((await alice.get('/api/v1/inbox', { 'if-none-match': '"something-else"' })).status).toBe(200);
      await post(alice, 'work', { type: 'RESPONSE', content: 'yes', correlationId: 'tag-1' });
      expect((await alice.get('/api/v1/inbox', { 'if-none-match': etag })).status).toBe(200);
    });

    it('with waitMs answers as soon as a request for the caller arrives, on another instance than the post', async () => {
      const before = await alice.get('/api/v1/inbox');
      const waiting = alice.as(aliceToken);
      const started = Date.now();
      const answer = fetch(`${second.baseUrl}/api/v1/inbox?waitMs=${LONG_WAIT_MS}`, { headers: { authorization: `Bearer ${waiting.token}`, 'if-none-match': before.headers.get('etag')! } });
      await sleep(300);
      const seq = await ask('secret', 'wake-1', 'Can you look at the private thing?');
      const res = await answer;
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(LONG_WAIT_MS / 2);
      const items = (await res.json()) as { channel: string; seq: number; correlationId: string }[];
      expect(items).toContainEqual(expect.objectContaining({ channel: 'secret', seq, correlationId: 'wake-1', reason: 'owed', content: 'Can you look at the private thing?' }));
      expect(res.headers.get('etag')).not.toBe(before.headers.get('etag'));
      expect(Number(res.headers.get('x-total-count'))).toBe(items.length);
      await post(alice, 'secret', { type: 'RESPONSE', content: 'done', correlationId: 'wake-1' });
    });

    it('a post that changes nothing for the caller does not answer it: 304 when the time is up', async () => {
      const before = await mallory.get('/api/v1/inbox');
      const etag = before.headers.get('etag')!;
      const started = Date.now();
      const answer = mallory.get(`/api/v1/inbox?waitMs=${SHORT_WAIT_MS}`, { 'if-none-match': etag });
      await sleep(200);
      await ask('secret', 'not-for-mallory', 'Mallory may not read this'); // a private channel mallory is not in
      await post(bob, 'work', { type: 'STATUS', content: 'just news' });
      const res = await answer;
      expect(res.status).toBe(304);
      expect(Date.now() - started).toBeGreaterThanOrEqual(SHORT_WAIT_MS - 50);
      await post(alice, 'secret', { type: 'RESPONSE', content: 'ok', correlationId: 'not-for-mallory' });
    });

    it('without If-None-Match waits for a non-empty inbox, and answers [] when none came', async () => {
      const res = await mallory.get(`/api/v1/inbox?waitMs=${SHORT_WAIT_MS}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('refuses a wait past QHORUS_LONG_POLL_MAX_MS or not an integer, naming waitMs; documents it as an integer', async () => {
      const tooLong = await alice.get('/api/v1/inbox?waitMs=3600000');
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.details).toEqual([{ field: 'waitMs', problems: [expect.stringContaining('QHORUS_LONG_POLL_MAX_MS')] }]);
      const notInt = await alice.get('/api/v1/inbox?waitMs=1.5');
      expect(notInt.status).toBe(400);
      expect(JSON.stringify(notInt.body.details)).toContain('waitMs');
      const doc = (await t.admin.get('/docs-json')).body;
      const op = doc.paths['/api/v1/inbox'].get;
      expect(op.parameters).toContainEqual(expect.objectContaining({ name: 'waitMs', in: 'query', schema: expect.objectContaining({ type: 'integer', minimum: 0 }) }));
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '304', '400', '401', '429']));
    });
  });

  describe('qhorus inbox --wait, spawned as a hook runs it', () => {
    let dir: string;
    let env: Record<string, string>;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'qhorus-inbox-'));
      env = { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: aliceToken };
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('exits 2 with nothing printed when nothing new arrives in time', async () => {
      const run = await qhorus(['inbox', '--wait', '1'], env);
      expect(run).toMatchObject({ code: 2, stdout: '', stderr: '' });
      expect(run.ms).toBeGreaterThanOrEqual(1_000);
    });

    /** The CLI's inbox long poll is asleep on the service (so what is posted next is new to it). */
    const cliWaiting = () => waitFor(async () => t.app.get(LongPollWaits).sleepingCount > 0, 'the CLI to wait on the inbox');

    it('exits 0 printing the obligation that arrives during the wait (an answerable line; --json: the API item)', async () => {
      const running = qhorus(['inbox', '--wait', '20'], env);
      await cliWaiting(); // it started from an inbox without the request below
      const seq = await ask('work', 'cli-wake', 'Please review PR 7');
      const run = await running;
      expect(run.code).toBe(0);
      expect(run.ms).toBeLessThan(10_000);
      expect(run.stdout).toBe(
        `[work] #${seq} QUERY from bob, to you (corr cli-wake): Please review PR 7\n    answer: qhorus post work '…' --type RESPONSE --correlation-id cli-wake --reply-to ${seq}\n`,
      );

      const jsonRun = qhorus(['inbox', '--wait', '20', '--json'], env);
      await cliWaiting();
      const seq2 = await ask('work', 'cli-json', 'And PR 8?');
      const printed = JSON.parse((await jsonRun).stdout);
      const api = (await alice.get('/api/v1/inbox')).body as { correlationId: string }[];
      expect(printed).toEqual([{ ...api.find((o) => o.correlationId === 'cli-json'), ageSeconds: expect.any(Number) }]);
      expect(printed[0]).toMatchObject({ seq: seq2, opener: 'bob' });
      await post(alice, 'work', { type: 'RESPONSE', content: 'both fine', correlationId: 'cli-wake' });
      await post(alice, 'work', { type: 'RESPONSE', content: 'both fine', correlationId: 'cli-json' });
    });

    it('with --state reports an obligation once across runs, and a reopened thread again', async () => {
      const state = join(dir, 'hook', 'inbox-state.json');
      const seq = await ask('work', 'once', 'Ship it?');
      const first = await qhorus(['inbox', '--wait', '5', '--state', state], env);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`#${seq} QUERY from bob, to you (corr once): Ship it?`);
      expect(first.ms).toBeLessThan(5_000); // there already: no wait
      const second = await qhorus(['inbox', '--wait', '1', '--state', state], env);
      expect(second).toMatchObject({ code: 2, stdout: '' }); // still open, already reported

      // Answered, then asked again in the same thread: a new obligation, reported once more.
      await post(alice, 'work', { type: 'RESPONSE', content: 'not yet', correlationId: 'once' });
      const reopen = await ask('work', 'once', 'Now?');
      const third = await qhorus(['inbox', '--wait', '5', '--state', state], { ...env });
      expect(third.code).toBe(0);
      expect(third.stdout).toContain(`#${reopen} QUERY from bob, to you (corr once): Now?`);
      expect(third.stdout).not.toContain('Ship it?');
      // The file remembers only what is still open.
      expect(JSON.parse(readFileSync(state, 'utf8'))).toEqual({ version: 1, reported: [JSON.stringify(['work', 'once', reopen, 'alice'])] });
      await post(alice, 'work', { type: 'RESPONSE', content: 'yes', correlationId: 'once' });
    });

    describe('examples/hooks, run as Claude Code and cron run them', () => {
      const run = (script: string, extraEnv: Record<string, string>, stdin = ''): Promise<Run> => {
        const started = Date.now();
        return new Promise((done) => {
          const child = execFile('bash', [resolve(ROOT, 'examples/hooks', script)], { cwd: dir, env: { PATH: process.env.PATH, HOME: dir, QHORUS_BIN: `${process.execPath} ${BIN}`, ...env, ...extraEnv } }, (err, stdout, stderr) => {
            done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr, ms: Date.now() - started });
          });
          child.stdin!.end(stdin);
        });
      };
      const hookInput = JSON.stringify({ session_id: 's-1', hook_event_name: 'Stop', stop_hook_active: false });

      it('the Stop hook blocks the stop with the new obligation as the reason, then lets Claude stop (exit 0, silent) once it was reported', async () => {
        const state = join(dir, 'claude-state.json');
        const seq = await ask('work', 'hook-1', 'Bump the version to 2.1');
        const first = await run('claude-code-stop-hook.sh', { QHORUS_HOOK_WAIT: '5', QHORUS_INBOX_STATE: state }, hookInput);
        expect(first.code).toBe(0);
        const decision = JSON.parse(first.stdout);
        expect(decision.decision).toBe('block');
        expect(decision.reason).toContain(`[work] #${seq} QUERY from bob, to you (corr hook-1): Bump the version to 2.1`);
        expect(decision.reason).toContain(`--correlation-id hook-1 --reply-to ${seq}`);
        const second = await run('claude-code-stop-hook.sh', { QHORUS_HOOK_WAIT: '1', QHORUS_INBOX_STATE: state }, hookInput);
        expect(second).toMatchObject({ code: 0, stdout: '', stderr: '' });
        const broken = await run('claude-code-stop-hook.sh', { QHORUS_HOOK_WAIT: '1', QHORUS_INBOX_STATE: state, QHORUS_TOKEN: 'qh_not-a-token' }, hookInput);
        expect(broken.code).toBe(1); // not 2: that would block Claude with the error as its prompt
        expect(broken.stderr).toMatch(/^qhorus inbox hook failed \(exit 1\): qhorus: the token was rejected/);
        await post(alice, 'work', { type: 'RESPONSE', content: 'bumped', correlationId: 'hook-1' });
      });

      it('the cron agent hands each new obligation to its handler once', async () => {
        const handled = join(dir, 'handled.txt');
        const seq = await ask('work', 'cron-1', 'Rotate the logs');
        const env2 = { QHORUS_CRON_WAIT: '1', QHORUS_INBOX_STATE: join(dir, 'cron', 'state.json'), QHORUS_HANDLER: `tee -a ${handled}` };
        expect((await run('cron-agent.sh', env2)).code).toBe(0);
        expect((await run('cron-agent.sh', env2)).code).toBe(0); // nothing new: the handler is not run again
        const lines = readFileSync(handled, 'utf8').split('\n').filter((l) => l.startsWith('{'));
        expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ channel: 'work', seq, correlationId: 'cron-1', content: 'Rotate the logs' })]);
        await post(alice, 'work', { type: 'DONE', correlationId: 'cron-1' });
      });
    });

    it('refuses a state file it did not write, and bad usage, with exit 1 and one line', async () => {
      const bad = join(dir, 'not-state.json');
      writeFileSync(bad, '{"hello": 1}');
      const run = await qhorus(['inbox', '--wait', '0', '--state', bad], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^qhorus: the state file .* is not one qhorus inbox wrote .*remove it to start over\n$/);
      const usage = await qhorus(['inbox', '--wait', 'soon'], env);
      expect(usage.code).toBe(1);
      expect(usage.stderr).toContain("option '-w, --wait <seconds>' argument 'soon' is invalid");
      const help = await qhorus(['inbox', '--help'], env);
      expect(help.stdout).toMatch(/2 {2}nothing new when the time was up/);
    });
  });
});
