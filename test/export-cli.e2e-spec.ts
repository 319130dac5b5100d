import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { QhorusClient, QhorusError } from '@qhorus/client';
import { ensureServiceBuilt } from './support/process-harness';
import { startTestApp, TestApp } from './support/test-app';

const BIN = resolve(__dirname, '..', 'bin/qhorus.js');

function qhorus(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** `qhorus export CHANNEL > file` and the client's `exportChannel`, against the real service. */
describe('export from the CLI and the client', () => {
  let t: TestApp;
  let token: string;
  let client: QhorusClient;

  beforeAll(async () => {
    await ensureServiceBuilt(); // the same build compiles the CLI
    t = await startTestApp('export-cli', { inProcessQueue: true });
    token = (await t.admin.post('/api/v1/agents', { name: 'carol' })).body.token;
    client = new QhorusClient({ baseUrl: t.baseUrl, token });
    await client.createChannel({ name: 'notes', summaryThreshold: 1000 });
    await client.postBatch('notes', [
      { type: 'STATUS', content: 'first' },
      { type: 'STATUS', content: 'second' },
      { type: 'STATUS', content: 'third' },
    ]);
    expect((await t.admin.post('/api/v1/channels/notes/messages/2/redact', { reason: 'wrong room' })).status).toBe(200);
  });
  afterAll(() => t?.close());

  it('the client yields the channel, each message (a tombstone for the redacted one) and the summary, parsed as they arrive', async () => {
    const lines = [];
    for await (const line of client.exportChannel('notes')) lines.push(line);
    expect(lines.map((l) => l.kind)).toEqual(['channel', 'message', 'message', 'message', 'summary']);
    expect(lines.slice(1, 4).map((l) => (l.kind === 'message' ? l.content : undefined))).toEqual(['first', null, 'third']);
    // Stopping early ends the download without reading the rest.
    for await (const line of client.exportChannel('notes')) {
      expect(line.kind).toBe('channel');
      break;
    }
    await expect(async () => {
      for await (const _line of client.exportChannel('nowhere')) void _line;
    }).rejects.toMatchObject({ statusCode: 404 } satisfies Partial<QhorusError>);
  });

  it('qhorus export CHANNEL writes the NDJSON the API streams; a missing channel is one line on stderr and exit 1', async () => {
    const run = await qhorus(['export', 'notes'], { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: token });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const api = await fetch(`${t.baseUrl}/api/v1/channels/notes/export`, { headers: { authorization: `Bearer ${token}` } });
    expect(run.stdout).toBe(await api.text());
    const missing = await qhorus(['export', 'nowhere'], { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: token });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^qhorus: 404 .*nowhere.*\n$/);
  });
});
