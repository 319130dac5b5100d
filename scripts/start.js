#!/usr/bin/env node
// `npm start`: build when the compiled service is missing or older than any source, then run it.
const { spawn } = require('node:child_process');
const { buildIfStale, root, SERVICE_ENTRY } = require('./build-if-stale');

buildIfStale();
const child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: root, stdio: 'inherit' });
let forwarded = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    forwarded = signal;
    child.kill(signal);
  });
}
// The service shuts down gracefully on a stop signal, then exits by that signal: a stop that was
// asked for is a clean exit (0) for whoever ran `npm start`; dying by any other signal is not.
child.on('exit', (code, signal) => process.exit(code ?? (signal !== null && signal === forwarded ? 0 : 1)));
