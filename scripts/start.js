#!/usr/bin/env node
// `npm start`: build when the compiled service is missing or older than any source, then run it.
const { execSync, spawn } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const entry = join(root, 'dist/apps/channel-service/src/main.js');
const SOURCES = ['apps', 'libs', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

const stale = !existsSync(entry) || SOURCES.some((s) => existsSync(join(root, s)) && newestMtime(join(root, s)) > statSync(entry).mtimeMs);
if (stale) {
  console.log('Building Qhorus…');
  execSync('npx nest build', { cwd: root, stdio: 'inherit' });
}
const child = spawn(process.execPath, [entry], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
