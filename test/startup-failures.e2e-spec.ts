import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServiceBuilt, SERVICE_ENTRY, startServiceProcess } from './support/process-harness';

/**
 * Runs the built service with `env` until it exits; its stderr lines and the exit code. The failure
 * line goes to stderr; Nest's own error line goes to stdout through pino, so which of the two a
 * reader of both pipes sees last depends on timing, not on the service.
 */
function runService(env: Record<string, string>): Promise<{ code: number | null; lines: string[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SERVICE_ENTRY], { env: { PATH: process.env.PATH ?? '', ...env } });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => resolve({ code, lines: err.split('\n').filter(Boolean) }));
  });
}

/** The last stderr line, parsed: a start-up failure must be one JSON line. */
const lastJson = (lines: string[]) => JSON.parse(lines[lines.length - 1]) as { level: string; message: string; context: string };

describe('a failure to start is one JSON line naming what failed, and exit code 1', () => {
  beforeAll(() => ensureServiceBuilt());

  it('a bad configuration value names the variable', async () => {
    const run = await runService({ PORT: 'eighty', LOG_LEVEL: 'info' });
    expect(run.code).toBe(1);
    expect(lastJson(run.lines)).toMatchObject({ level: 'error', context: 'Config', message: expect.stringMatching(/^Invalid configuration: PORT: [^\n]*PORT must be an integer number$/) });
  });

  it.each([
    [{ QHORUS_LLM_PROVIDER: 'gemini' }, /^Invalid configuration: QHORUS_LLM_PROVIDER: QHORUS_LLM_PROVIDER must be one of the following values: anthropic, openai$/],
    [{ QHORUS_LLM_PROVIDER: 'openai', QHORUS_LLM_BASE_URL: 'localhost:11434/v1' }, /^Invalid configuration: QHORUS_LLM_BASE_URL: QHORUS_LLM_BASE_URL must be an http:\/\/ or https:\/\/ URL \(the model API base URL\)$/],
    [{ QHORUS_LLM_MODEL: ' ' }, /^Invalid configuration: QHORUS_LLM_MODEL is blank[^\n]*$/],
  ])('a bad model provider setting (%p) is one line naming it', async (env, message) => {
    const run = await runService({ ...env, LOG_LEVEL: 'info' });
    expect(run.code).toBe(1);
    expect(lastJson(run.lines)).toMatchObject({ level: 'error', context: 'Config', message: expect.stringMatching(message) });
  });

  it('a port already taken names HOST and PORT', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-port-taken-'));
    try {
      // The embedded default: nothing shared is touched before the listen fails.
      const run = await runService({ PORT: String(port), HOST: '127.0.0.1', QHORUS_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
      expect(run.code).toBe(1);
      expect(lastJson(run.lines)).toMatchObject({ level: 'error', message: `cannot listen on 127.0.0.1:${port} (HOST, PORT): the address is in use` });
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a QHORUS_DATA_DIR that cannot hold the database names it (not a stack trace)', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'qhorus-data-file-'));
    const file = join(parent, 'a-file');
    writeFileSync(file, 'not a directory');
    try {
      const run = await runService({ QHORUS_DATA_DIR: join(file, 'sub'), LOG_LEVEL: 'warn' });
      expect(run.code).toBe(1);
      expect(lastJson(run.lines)).toMatchObject({ level: 'error', message: expect.stringMatching(/^QHORUS_DATA_DIR .*a-file\/sub cannot hold the embedded database: ENOTDIR/) });
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('a second process on the same embedded QHORUS_DATA_DIR is refused naming it; after the first is killed, the next start takes over', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'qhorus-data-shared-'));
    const embedded = { databaseUrl: '', queuePrefix: 'unused', env: { QHORUS_DATA_DIR: dataDir, QHORUS_ADMIN_TOKEN: '' } };
    const first = await startServiceProcess({ name: 'first', ...embedded });
    try {
      const second = await runService({ QHORUS_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' });
      expect(second.code).toBe(1);
      expect(lastJson(second.lines)).toMatchObject({ level: 'error', message: expect.stringContaining(`QHORUS_DATA_DIR ${dataDir} is in use by another Qhorus process`) });
      await first.stop('SIGKILL'); // a crash: the lock stays behind, its holder is gone
      const third = await startServiceProcess({ name: 'third', ...embedded });
      await third.stop();
    } finally {
      await first.kill();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
