import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './support/free-port';
import { ensureServiceBuilt } from './support/process-harness';

const ROOT = resolve(__dirname, '..');
/** The embedded database's first start (migrations included) is slow on a busy machine. */
const DEMO_TIMEOUT_MS = 300_000;

describe('npm run demo on a machine where nothing is running', () => {
  let dataDir: string;
  beforeAll(async () => {
    await ensureServiceBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'qhorus-demo-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'starts the embedded service itself, plays the conversation with its summaries, and stops the service',
    async () => {
      const url = `http://127.0.0.1:${await freePort()}`;
      const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: process.env.HOME, QHORUS_URL: url, QHORUS_DATA_DIR: dataDir, DEMO_DELAY_MS: '0' };
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
        execFile(process.execPath, ['scripts/demo.js'], { cwd: ROOT, env, timeout: DEMO_TIMEOUT_MS }, (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr })),
      );
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toContain(`Nothing answers at ${url}: starting the embedded service there`);
      expect(run.stdout).toMatch(/── summary v1 · tier /);
      expect(run.stdout).toContain('Summary history (newest first):');
      // The service it started is gone with it.
      expect(await fetch(`${url}/health/live`).then(() => 'answering', () => 'stopped')).toBe('stopped');
    },
    DEMO_TIMEOUT_MS + 30_000,
  );
});
