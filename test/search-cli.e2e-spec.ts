import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { ApiClient } from './support/http';
import { ensureServiceBuilt } from './support/process-harness';
import { startTestApp, TestApp } from './support/test-app';

const ROOT = resolve(__dirname, '..');
const BIN = resolve(ROOT, 'bin/qhorus.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `qhorus …` as a user would: the package's bin, a fresh process, env for URL and token. */
function qhorus(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env } }, (err, stdout, stderr) => {
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** `qhorus search QUERY [--channel C]` on the typed client's search method. */
describe('qhorus search', () => {
  let t: TestApp;
  let dana: ApiClient;
  let env: Record<string, string>;

  beforeAll(async () => {
    await ensureServiceBuilt(); // the same build compiles the CLI
    t = await startTestApp('search-cli', { inProcessQueue: true });
    dana = await t.agent('dana');
    env = { QHORUS_URL: t.baseUrl, QHORUS_TOKEN: dana.token! };
    for (const name of ['alpha', 'beta']) expect((await dana.post('/api/v1/channels', { name })).status).toBe(201);
    for (const [channel, content] of [['alpha', 'the retry policy is settled'], ['beta', 'retry once more'], ['beta', 'nothing here']]) {
      expect((await dana.post(`/api/v1/channels/${channel}/messages`, { content })).status).toBe(201);
    }
  });
  afterAll(() => t?.close());

  it('prints the API\'s own JSON with --json', async () => {
    const run = await qhorus(['search', 'retry', '--json'], env);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual((await dana.get('/api/v1/search?q=retry')).body);
  });

  it('prints one line per match, best first, and how to get the next page', async () => {
    const run = await qhorus(['search', '"retry policy"'], env);
    expect(run.stdout).toBe('alpha#1\tSTATUS\tdana\tthe «retry» «policy» is settled\n');
    const first = await qhorus(['search', 'retry', '--limit', '1'], env);
    expect(first.stdout).toMatch(/^(alpha#1|beta#1)\tSTATUS\tdana\t.*«retry».*\nmore: --cursor \S+\n$/);
    const cursor = first.stdout.match(/--cursor (\S+)/)![1];
    const next = await qhorus(['search', 'retry', '--limit', '1', '--cursor', cursor], env);
    expect(next.stdout).toMatch(/^(alpha#1|beta#1)\tSTATUS\tdana\t.*«retry».*\n$/);
    expect(next.stdout.split('\t')[0]).not.toBe(first.stdout.split('\t')[0]);
    const one = await qhorus(['search', 'retry', '--channel', 'beta'], env);
    expect(one.stdout).toBe('beta#1\tSTATUS\tdana\t«retry» once more\n');
  });

  it('says what is wrong with a query, exit code 1', async () => {
    const run = await qhorus(['search', '...'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('q has no word to search for');
  });
});
