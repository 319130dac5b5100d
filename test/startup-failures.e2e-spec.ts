import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureServiceBuilt, SERVICE_ENTRY } from './support/process-harness';

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
    expect(lastJson(run.lines)).toMatchObject({ level: 'error', context: 'Config', message: expect.stringMatching(/^Invalid configuration:\n {2}PORT: .*PORT must be an integer number/) });
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
});
