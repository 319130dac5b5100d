import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ensureServiceBuilt } from './support/process-harness';

const ROOT = resolve(__dirname, '..');

describe('libs/qhorus-client: the generated files', () => {
  beforeAll(() => ensureServiceBuilt());

  it('are what `npm run client:generate` makes of the service\'s OpenAPI document now (a route or schema change makes this fail until regenerated)', async () => {
    const check = await promisify(execFile)(process.execPath, ['scripts/generate-client.js', '--check'], { cwd: ROOT }).then(
      () => 'fresh',
      (err: { stderr?: string; code?: number; signal?: string }) => `exit ${err.code ?? err.signal}: ${err.stderr || String(err)}`,
    );
    expect(check).toBe('fresh');
  });
});
