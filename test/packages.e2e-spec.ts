import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LocalRegistry, startLocalRegistry } from './support/local-npm-registry';
import { startTestApp, TestApp } from './support/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { packPackages } = require('../scripts/pack-packages') as { packPackages: (out: string) => string[] };

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const FIXTURES = join(__dirname, 'fixtures', 'package-consumer');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** Packing, an npm install (its dependencies packed from node_modules as npm asks for them) and three scripts on a loaded CI machine. */
const PACKAGES_TIMEOUT_MS = 300_000;

/**
 * DESIGN §9, issue 28 item 5: the @qhorus/* packages are real packages. `npm pack` tarballs are
 * installed into a project outside the repository (a temp dir, no path aliases, no workspace
 * links) and used from there, by require, import and the type checker, against a service this
 * test started. No network: the install's registry is a local one serving the packages of the
 * repository's node_modules (the @qhorus ones withheld, so they come from the tarballs alone),
 * with an empty npm cache and no user npm configuration.
 */
describe('@qhorus/* packages: packed, installed outside the repository, used against a running service', () => {
  let t: TestApp;
  let work: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let registry: LocalRegistry;

  beforeAll(async () => {
    t = await startTestApp('packages');
    work = mkdtempSync(join(tmpdir(), 'qhorus-packages-'));
    const tarballs = packPackages(join(work, 'tarballs'));
    project = join(work, 'consumer');
    await run('mkdir', ['-p', project]);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'qhorus-consumer', version: '1.0.0', private: true }));
    for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(project, file));
    registry = await startLocalRegistry(join(ROOT, 'node_modules'), (name) => name.startsWith('@qhorus/'));
    writeFileSync(join(work, 'npmrc'), '');
    const npmEnv = { ...process.env, NODE_OPTIONS: '', npm_config_userconfig: join(work, 'npmrc'), npm_config_update_notifier: 'false' };
    await run('npm', ['install', '--registry', registry.url, '--cache', join(work, 'npm-cache'), '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], { cwd: project, env: npmEnv });
    const agent = 'packaged-agent';
    const registered = await t.admin.post('/api/v1/agents', { name: agent });
    env = { ...process.env, NODE_OPTIONS: '', QHORUS_URL: t.baseUrl, QHORUS_TOKEN: registered.body.token, QHORUS_AGENT: agent, QHORUS_CHANNEL: 'packaged' };
  }, PACKAGES_TIMEOUT_MS);
  afterAll(async () => {
    await registry?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    await t?.close();
  });

  it('installs the @qhorus packages from the tarballs alone, their dependencies from the local registry', () => {
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@qhorus/api', '@qhorus/blocks-channel-summary', '@qhorus/blocks-summarisation', '@qhorus/client', '@qhorus/langchain']);
    for (const spec of Object.values<string>(manifest.dependencies)) expect(spec).toMatch(/^file:.*\.tgz$/);
    expect(registry.requests.filter((r) => r.startsWith('GET @qhorus/') && r.endsWith('.tgz'))).toEqual([]);
    // The declared dependencies came through the registry (so they are declared: nothing else put them there).
    expect(registry.requests).toEqual(expect.arrayContaining(['GET openapi-fetch', 'GET eventsource-parser', 'GET @langchain/core', 'GET @nestjs/common']));
  });

  it('each tarball holds built JavaScript and declarations, no TypeScript source', async () => {
    const { stdout } = await run('tar', ['tzf', join(work, 'tarballs', 'qhorus-client-0.1.0.tgz')]);
    const files = stdout.trim().split('\n');
    expect(files).toEqual(expect.arrayContaining(['package/package.json', 'package/dist/index.js', 'package/dist/index.d.ts']));
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('require(): @qhorus/client and @qhorus/langchain (a LangChain chat history on a channel), @qhorus/api and the blocks', async () => {
    const { stdout } = await run(process.execPath, ['consumer.cjs'], { cwd: project, env });
    const out = JSON.parse(stdout.trim().split('\n').pop()!);
    expect(out).toEqual({
      querySeq: 1,
      history: [
        ['ai', 'Who ships the release?'], // the agent's own post, read back by its own history
        ['human', 'Ship it on Friday?'], // posted by the chain as the human turn (its role kept in the metadata)
        ['ai', 'Friday it is.'],
      ],
      messageTypes: 9,
      tokens: 3,
      summaryTier: 'grouped',
    });
    const stored = await t.admin.get('/api/v1/channels/packaged/messages');
    expect(stored.body.map((m: { content: string; sender: string }) => [m.sender, m.content])).toEqual([
      ['packaged-agent', 'Who ships the release?'],
      ['packaged-agent', 'Ship it on Friday?'],
      ['packaged-agent', 'Friday it is.'],
    ]);
  });

  it('import: the same packages as ES modules, named exports included', async () => {
    const { stdout } = await run(process.execPath, ['consumer.mjs'], { cwd: project, env });
    expect(JSON.parse(stdout.trim())).toEqual({ channels: expect.arrayContaining(['packaged']), history: 'function', tokens: 3 });
  });

  it('types: a TypeScript consumer type-checks against the packages\' declarations (node16 resolution)', async () => {
    const args = [TSC, '--noEmit', '--strict', '--skipLibCheck', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022', 'consumer.ts'];
    const checked = await run(process.execPath, args, { cwd: project }).then(
      () => 'ok',
      (err: { stdout: string }) => err.stdout,
    );
    expect(checked).toBe('ok');
  });
});
