#!/usr/bin/env node
'use strict';
// `npm run pack:packages [-- --out DIR]`: builds the five @qhorus/* packages (libs/*, npm
// workspaces) to JavaScript + .d.ts with `tsc -b libs/tsconfig.build.json` into
// dist/packages/<name>/dist, puts each lib's package.json (and README) next to it, and
// `npm pack`s each into DIR (default dist/packages). Prints one JSON line last: the tarballs,
// dependencies first. Built outside libs/ on purpose: see libs/tsconfig.lib.json.
const { execFileSync } = require('node:child_process');
const { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { basename, join, resolve } = require('node:path');

const ROOT = join(__dirname, '..');
const STAGING = join(ROOT, 'dist', 'packages');
/** In dependency order: a tarball's @qhorus dependencies come before it. */
const LIBS = ['qhorus-api', 'blocks-summarisation', 'blocks-channel-summary', 'qhorus-client', 'qhorus-langchain'];

/** The staged package of one lib: its package.json without the in-place guard, its README. */
function stage(lib) {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'libs', lib, 'package.json'), 'utf8'));
  const dir = join(STAGING, manifest.name.replace('@qhorus/', ''));
  delete manifest.scripts;
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const readme = join(ROOT, 'libs', lib, 'README.md');
  if (existsSync(readme)) copyFileSync(readme, join(dir, 'README.md'));
  return dir;
}

function packPackages(out = STAGING) {
  mkdirSync(out, { recursive: true });
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', join(ROOT, 'libs', 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  return LIBS.map((lib) => {
    const dir = stage(lib);
    const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out, dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
    return join(out, basename(packed.filename));
  });
}

if (require.main === module) {
  if (process.argv.includes('--refuse-in-place')) {
    // A lib packed where it stands has no built files (they are under dist/packages): refuse.
    console.error('Pack the @qhorus/* packages from the repository root: npm run pack:packages');
    process.exit(1);
  }
  const outArg = process.argv.indexOf('--out');
  const tarballs = packPackages(outArg > 0 ? resolve(process.argv[outArg + 1]) : undefined);
  console.log(JSON.stringify({ tarballs }));
}

module.exports = { packPackages, LIBS };
