import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { callTool, connectMcp } from './support/mcp-client';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

const README = resolve(__dirname, '../README.md');

/** The README's curl walk-through, as written (its first bash block after the heading), aimed at `baseUrl`. */
function walkThrough(baseUrl: string): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('## Walk-through (curl)'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1];
  expect(block).toContain('http://localhost:3000');
  return `set -e\n${block.replaceAll('http://localhost:3000', baseUrl)}`;
}

/** Runs the walk-through in `dir` (where `.data/` is), returning what it printed (stdout and stderr, in order). Async: the service answers from this process. */
const run = async (script: string, dir: string): Promise<string> => (await promisify(execFile)('bash', ['-c', `(${script}) 2>&1`], { cwd: dir, encoding: 'utf8', timeout: 60_000 })).stdout;

/** Issue 28 item 6: what a new user meets first does not bite. */
describe('first contact', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp('first-contact', { inProcessQueue: true });
    dir = mkdtempSync(join(tmpdir(), 'qhorus-walk-'));
    mkdirSync(join(dir, '.data'));
    writeFileSync(join(dir, '.data/admin-token'), TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('runs the README walk-through twice: tokens kept, never a non-token in a token file, one answer per line', async () => {
    const script = walkThrough(t.baseUrl);
    const first = await run(script, dir);
    const tokens = ['planner', 'coder', 'reviewer'].map((a) => readFileSync(join(dir, `.data/${a}.token`), 'utf8'));
    for (const token of tokens) expect(token).toMatch(/^qh_[A-Za-z0-9_-]+$/);
    // A token is a credential: its file is the owner's alone, as the admin token's is.
    for (const a of ['planner', 'coder', 'reviewer']) expect(statSync(join(dir, `.data/${a}.token`)).mode & 0o777).toBe(0o600);
    expect(first).toMatch(/^planner: registered, token in \.data\/planner\.token$/m);
    // Every JSON answer is on a line of its own.
    const answers = first.split('\n').filter((line) => line.startsWith('{'));
    expect(answers.length).toBeGreaterThanOrEqual(4);
    for (const line of answers) expect(() => JSON.parse(line)).not.toThrow();

    const second = await run(script, dir);
    expect(second).toMatch(/^planner: token kept in \.data\/planner\.token$/m);
    expect(second).toMatch(/"statusCode":409/); // the channel exists: said, and the walk goes on
    expect(['planner', 'coder', 'reviewer'].map((a) => readFileSync(join(dir, `.data/${a}.token`), 'utf8'))).toEqual(tokens);
    const messages = await t.admin.get('/api/v1/channels/release-42/messages?limit=100');
    expect(messages.body).toHaveLength(50);

    // A token file lost while the name stays registered: the 409 says how to get a new token, and no file is written.
    unlinkSync(join(dir, '.data/reviewer.token'));
    const third = await run(script, dir);
    expect(third).toContain("409: Agent name 'reviewer' is already taken");
    expect(third).toContain('POST /api/v1/agents/reviewer/token');
    expect(existsSync(join(dir, '.data/reviewer.token'))).toBe(false);
    expect(existsSync(join(dir, '.data/reviewer.token.new'))).toBe(false);
  });

  it('refuses a target naming no registered agent with a 400 naming it: post, batch and MCP send_message', async () => {
    const alice = await t.agent('fc-alice');
    await t.agent('fc-bob');
    expect((await alice.post('/api/v1/channels', { name: 'fc-targets' })).status).toBe(201);
    const typo = await alice.post('/api/v1/channels/fc-targets/messages', { type: 'QUERY', content: 'ready?', target: 'fc-bbo' });
    expect(typo.status).toBe(400);
    expect(typo.body.details).toEqual([{ field: 'target', problems: ["target 'fc-bbo' names no registered agent (register it first, or check the spelling)"] }]);
    expect((await alice.post('/api/v1/channels/fc-targets/messages', { type: 'QUERY', content: 'ready?', target: 'fc-bob' })).status).toBe(201);
    expect((await alice.post('/api/v1/channels/fc-targets/messages', { type: 'QUERY', content: 'admin?', target: 'admin' })).status).toBe(201);

    const batch = await alice.post('/api/v1/channels/fc-targets/messages/batch', {
      messages: [{ content: 'fine', target: 'fc-bob' }, { type: 'HANDOFF', target: 'nobody-here' }],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.details).toEqual([{ field: 'messages.1.target', problems: ["target 'nobody-here' names no registered agent (register it first, or check the spelling)"] }]);
    const mcp = await connectMcp(t.baseUrl, alice.token);
    try {
      const sent = await callTool(mcp, 'send_message', { channel: 'fc-targets', type: 'QUERY', content: 'ready?', target: 'fc-bbo' });
      expect(sent.isError).toBe(true);
      expect(sent.text).toContain("target 'fc-bbo' names no registered agent");
    } finally {
      await mcp.close();
    }
    // Nothing of the refused requests was written.
    expect((await alice.get('/api/v1/channels/fc-targets/messages')).body).toHaveLength(2);
  });
});
