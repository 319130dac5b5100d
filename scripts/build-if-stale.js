// Builds the service (and the CLI, which the same `nest build` compiles) when dist is missing or
// older than any source. Used by `npm start`, `npm run client:generate` and the `qhorus` bin.
'use strict';
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const SERVICE_ENTRY = join(root, 'dist/apps/channel-service/src/main.js');
const SOURCES = ['apps', 'libs', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

function isStale(entry = SERVICE_ENTRY) {
  return !existsSync(entry) || SOURCES.some((s) => existsSync(join(root, s)) && newestMtime(join(root, s)) > statSync(entry).mtimeMs);
}

/** `stdio`: 'inherit' to show the build, or e.g. ['ignore', 2, 2] to keep stdout clean (the CLI). */
function buildIfStale({ entry = SERVICE_ENTRY, stdio = 'inherit' } = {}) {
  if (!isStale(entry)) return;
  process.stderr.write('Building Qhorus…\n');
  execSync('npx nest build', { cwd: root, stdio });
}

module.exports = { root, SERVICE_ENTRY, buildIfStale, isStale };
