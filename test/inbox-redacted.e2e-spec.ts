import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { ApiClient } from './support/http';
import { connectMcp, useTool } from './support/mcp-client';
import { ensureServiceBuilt } from './support/process-harness';
import { startTestApp, TestApp } from './support/test-app';

const BIN = resolve(__dirname, '..', 'bin/qhorus.js');

function qhorus(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } }, (err, stdout, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/**
 * A request redacted while it is still owed (DESIGN §10): the obligation stays in the inbox, and
 * reads as a tombstone there as everywhere — `content: null` and `redacted: {at, by, reason}` on
 * REST and MCP `check_inbox`, `[redacted by …]` in `qhorus inbox` (a hook prints it) — and the
 * inbox's tag moves, so a client holding the old page reads it again.
 */
describe('a redacted request in the inbox', () => {
  let t: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    await ensureServiceBuilt(); // the CLI runs from the build
    t = await startTestApp('inbox-redacted', { inProcessQueue: true });
    [alice, bob] = [await t.agent('alice'), await t.agent('bob')];
  });
  afterAll(() => t?.close());

  it('REST, MCP and the CLI show the tombstone of a request still owed, never its text; the tag changes', async () => {
    expect((await bob.post('/api/v1/channels', { name: 'owed', summaryThreshold: 10_000 })).status).toBe(201);
    const q = await bob.post('/api/v1/channels/owed/messages', { type: 'QUERY', content: 'is inbox-s3cr3t the key?', correlationId: 'k-1', target: 'alice' });
    expect(q.status).toBe(201);
    const before = await alice.get('/api/v1/inbox');
    expect(before.body).toEqual([expect.objectContaining({ seq: q.body.seq, content: 'is inbox-s3cr3t the key?' })]);
    expect(before.body[0]).not.toHaveProperty('redacted');
    const tag = before.headers.get('etag')!;

    expect((await bob.post(`/api/v1/channels/owed/messages/${q.body.seq}/redact`, { reason: 'pasted a key' })).status).toBe(200);

    const after = await alice.get('/api/v1/inbox', { 'if-none-match': tag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(tag);
    expect(after.body).toEqual([
      expect.objectContaining({ seq: q.body.seq, correlationId: 'k-1', opener: 'bob', reason: 'owed', content: null, redacted: { at: expect.any(String), by: 'bob', reason: 'pasted a key' } }),
    ]);

    const mcp = await connectMcp(t.baseUrl, alice.token);
    try {
      const tool = await useTool(mcp, 'check_inbox', {});
      expect(tool.items).toEqual([expect.objectContaining({ seq: q.body.seq, content: null, redacted: expect.objectContaining({ by: 'bob', reason: 'pasted a key' }) })]);
      expect(JSON.stringify(tool)).not.toContain('inbox-s3cr3t');
    } finally {
      await mcp.close();
    }

    const env = { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: alice.token! };
    const printed = await qhorus(['inbox'], env);
    expect(printed).toMatchObject({ code: 0, stderr: '' });
    expect(printed.stdout).toContain(`[owed] #${q.body.seq} QUERY from bob, to you (corr k-1): [redacted by bob: pasted a key]`);
    expect(printed.stdout).not.toContain('null');
    const json = await qhorus(['inbox', '--json'], env);
    expect(json.code).toBe(0);
    const withoutAge = (items: { ageSeconds: number }[]) => items.map(({ ageSeconds: _age, ...rest }) => rest);
    expect(withoutAge(JSON.parse(json.stdout))).toEqual(withoutAge(after.body));
  });
});
