import { ChildProcess, execFile, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { QhorusClient } from '@qhorus/client';
import { freePort } from './support/free-port';
import { waitFor } from './support/http';
import { ensureServiceBuilt } from './support/process-harness';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const ROOT = resolve(__dirname, '..');
const BIN = resolve(ROOT, 'bin/qhorus.js');
/** An ANSI colour escape (built from the ESC code: a literal control character is easy to lose). */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[\\d+m`);
const ANSI_ALL = new RegExp(ANSI.source, 'g');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `qhorus …` as a user would: the package's bin, a fresh process, env for URL and token. */
function qhorus(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }, (err, stdout, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('the qhorus CLI, spawned against the real service', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let agentToken: string;

  beforeAll(async () => {
    await ensureServiceBuilt(); // the same build compiles the CLI
    t = await startTestApp('qhorus-cli', { inProcessQueue: true });
    const added = await qhorus(['agents', 'add', 'carol', '--url', t.baseUrl, '--token', TEST_ADMIN_TOKEN]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const [name, token] = added.stdout.trim().split('\t');
    expect(name).toBe('carol');
    agentToken = token;
    env = { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: agentToken };
  });
  afterAll(() => t?.close());

  it('agents ls and channels create|ls|show, in words and as the API\'s own JSON', async () => {
    const agents = JSON.parse((await qhorus(['agents', 'ls', '--json'], { ...env, QHORUS_TOKEN: TEST_ADMIN_TOKEN })).stdout);
    expect(agents).toEqual((await t.admin.get('/api/v1/agents')).body);
    expect(agents.map((a: { name: string }) => a.name)).toContain('carol');

    const created = await qhorus(['channels', 'create', 'cli-room', '-d', 'Where the CLI talks', '--threshold', '3'], env);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^created cli-room\t0 messages\theuristic, every 3\tpublic\tWhere the CLI talks\n$/);
    const ls = await qhorus(['channels', 'ls'], env);
    expect(ls.stdout.split('\n')).toContain('cli-room\t0 messages\theuristic, every 3\tpublic\tWhere the CLI talks');
    const shown = JSON.parse((await qhorus(['channels', 'show', 'cli-room', '--json'], env)).stdout);
    expect(shown).toEqual((await t.admin.get('/api/v1/channels/cli-room')).body);
  });

  it('post (typed, threaded), history, summary and context', async () => {
    const query = await qhorus(['post', 'cli-room', 'Who reviews the migration?', '--type', 'query', '-c', 'q-1'], env);
    expect(query.stdout).toMatch(/^#1 \d\d:\d\d:\d\d QUERY {4}carol \[corr q-1 · topic general\]: Who reviews the migration\?\n$/);
    const answer = JSON.parse((await qhorus(['post', 'cli-room', 'dave does', '--type', 'RESPONSE', '-c', 'q-1', '-r', '1', '--json'], env)).stdout);
    expect(answer).toMatchObject({ seq: 2, type: 'RESPONSE', correlationId: 'q-1', inReplyTo: 1, sender: 'carol' });
    const history = JSON.parse((await qhorus(['history', 'cli-room', '--json'], env)).stdout);
    expect(history).toEqual((await t.admin.get('/api/v1/channels/cli-room/messages')).body);
    const page = await qhorus(['history', 'cli-room', '--after-seq', '1'], env);
    expect(page.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^#2 .* RESPONSE carol \[corr q-1 · re #1 · topic general\]: dave does$/)]);

    await qhorus(['post', 'cli-room', 'Migration merged', '--type', 'STATUS'], env);
    await waitFor(async () => (await t.admin.get('/api/v1/channels/cli-room/summary')).body.version >= 1, 'the first summary');
    const summary = JSON.parse((await qhorus(['summary', 'cli-room', '--json'], env)).stdout);
    expect(summary).toEqual((await t.admin.get('/api/v1/channels/cli-room/summary')).body);
    const words = await qhorus(['summary', 'cli-room'], env);
    expect(words.stdout.startsWith(`v${summary.version} through #${summary.coversThroughSeq} of ${summary.lastSeq} (${summary.pending} pending, heuristic)\n${summary.text}`)).toBe(true);
    expect(JSON.parse((await qhorus(['summary', 'cli-room', '--versions', '--json'], env)).stdout)[0]).toMatchObject({ version: summary.version });

    const context = await qhorus(['context', 'cli-room'], env);
    expect(context.stdout).toContain(`[Summary of messages 1–${summary.coversThroughSeq} (v${summary.version})`);
    const anthropic = JSON.parse((await qhorus(['context', 'cli-room', '--format', 'anthropic', '--json'], env)).stdout);
    expect(anthropic).toMatchObject({ channel: 'cli-room', viewer: 'carol', format: 'anthropic', messages: expect.any(Array) });
  });

  describe('tail', () => {
    let child: ChildProcess | undefined;
    afterEach(() => {
      child?.kill('SIGKILL');
      child = undefined;
    });

    async function tail(args: string[], extraEnv: Record<string, string> = {}, channel = 'cli-room') {
      child = spawn(process.execPath, [BIN, 'tail', channel, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env, ...extraEnv } });
      let out = '';
      child.stdout!.on('data', (d) => (out += d));
      const exited = new Promise<number | null>((r) => child!.on('exit', (code) => r(code)));
      return { output: () => out, exited };
    }

    it('replays, then follows live, each type in its colour; Ctrl-C ends it cleanly', async () => {
      const t1 = await tail(['--after-seq', '1'], { FORCE_COLOR: '1' });
      await waitFor(async () => t1.output().includes('Migration merged') || null, 'the replay');
      expect(t1.output()).not.toContain('Who reviews');
      const res = await t.admin.post('/api/v1/channels/cli-room/messages', { type: 'FAILURE', content: 'the suite fails', correlationId: 'run-1' });
      expect(res.status).toBe(201);
      await waitFor(async () => t1.output().includes('the suite fails') || null, 'the live message');
      const line = t1.output().split('\n').find((l) => l.includes('the suite fails'))!;
      expect(line).toMatch(ANSI);
      expect(line.replace(ANSI_ALL, '')).toMatch(/^#\d+ \d\d:\d\d:\d\d FAILURE {2}admin \[corr run-1 · topic general\]: the suite fails$/);
      child!.kill('SIGINT');
      expect(await t1.exited).toBe(0);
    });

    it('with no --after-seq replays the newest 10 messages it shows (EVENT telemetry after them does not push them out)', async () => {
      expect((await t.admin.post('/api/v1/channels', { name: 'cli-telemetry' })).status).toBe(201);
      await t.admin.post('/api/v1/channels/cli-telemetry/messages', { type: 'STATUS', content: 'the one message' });
      for (let i = 0; i < 12; i++) await t.admin.post('/api/v1/channels/cli-telemetry/messages', { type: 'EVENT', content: `cpu ${i}` });
      const t3 = await tail([], {}, 'cli-telemetry');
      await waitFor(async () => t3.output().includes('the one message') || null, 'the replay');
      expect(t3.output()).not.toContain('cpu');
    });

    it('--json prints one event per line, as the stream carries it', async () => {
      const t2 = await tail(['--json']);
      await waitFor(async () => t2.output().includes('the suite fails') || null, 'the replay');
      await t.admin.post('/api/v1/channels/cli-room/messages', { type: 'DONE', content: 'fixed', correlationId: 'run-1' });
      await waitFor(async () => t2.output().includes('"fixed"') || null, 'the live message');
      const events = t2.output().trim().split('\n').map((l) => JSON.parse(l));
      // A summary.updated may follow it (the post can cross the threshold): find the message's own line.
      const posted = events.find((e) => e.event === 'message.posted' && e.data?.content === 'fixed');
      expect(posted).toMatchObject({ event: 'message.posted', data: { type: 'DONE', content: 'fixed' } });
      expect(t2.output()).not.toMatch(ANSI);
    });
  });

  it('wrong token, wrong URL, no token: one line naming what is wrong, exit 1, no stack trace', async () => {
    const badToken = await qhorus(['channels', 'ls'], { ...env, QHORUS_TOKEN: 'qh_wrong' });
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const badUrl = await qhorus(['channels', 'ls', '--url', nowhere], env);
    const noToken = await qhorus(['summary', 'cli-room'], { QHORUS_URL: t.baseUrl });
    const notQhorus = await qhorus(['channels', 'ls'], { ...env, QHORUS_URL: `${t.baseUrl}/nothing-here` });
    for (const run of [badToken, badUrl, noToken, notQhorus]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
    expect(badToken.stderr).toMatch(/^qhorus: the token was rejected by .* \(401\).*QHORUS_TOKEN/);
    expect(badUrl.stderr).toMatch(new RegExp(`^qhorus: cannot reach the Qhorus service at ${nowhere}: ECONNREFUSED`));
    expect(noToken.stderr).toMatch(/^qhorus: no token: pass --token or set QHORUS_TOKEN/);
    expect(notQhorus.stderr).toMatch(/^qhorus: .*has no such route \(404\)/);
  });

  it('a usage error is its line and where the usage is, not the whole help; post --help names the default type', async () => {
    for (const args of [['--bogus'], ['bogus']]) {
      const run = await qhorus(args, env);
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: unknown (option|command) '(--)?bogus'/), "(run 'qhorus --help' for usage)"]);
    }
    expect((await qhorus(['post', '--help'], env)).stdout).toContain('(default STATUS)');
  });

  it('inbox: the caller\'s open obligations once the client knows the route; until then it says what is missing', async () => {
    const run = await qhorus(['inbox', '--json'], env);
    if (QhorusClient.operationFor('GET', '/api/v1/inbox')) {
      expect(run.code).toBe(0);
      const direct = await fetch(`${t.baseUrl}/api/v1/inbox`, { headers: { authorization: `Bearer ${agentToken}` } });
      expect(JSON.parse(run.stdout)).toEqual(await direct.json());
    } else {
      expect(run).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^qhorus: inbox needs GET \/api\/v1\/inbox, which this client was not generated with/) });
    }
  });
});
