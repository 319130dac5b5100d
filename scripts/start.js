#!/usr/bin/env node
// `npm start`: build when the compiled service is missing or older than any source, then run it.
const { spawn } = require('node:child_process');
const { buildIfStale, root, SERVICE_ENTRY } = require('./build-if-stale');

buildIfStale();
const child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
