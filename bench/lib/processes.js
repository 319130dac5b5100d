'use strict';
const { spawn } = require('node:child_process');
const { openSync } = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const { join } = require('node:path');
const { HOST } = require('../config');

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

/** Asks the OS for a free port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url, child, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(child)) throw new Error(`${url}: process exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url}: not ready after ${timeoutMs} ms`);
}

/**
 * Starts `node [nodeArgs] script` with `env` and waits until `readyPath` answers. Its stdout (the
 * service's JSON log, a line per request at the default level) goes to a file, as in a
 * deployment, not through this process; stderr is relayed prefixed with `label`.
 */
async function startServer({ label, script, nodeArgs = [], env, readyPath }) {
  const port = await freePort();
  const logFile = join(os.tmpdir(), `qhorus-bench-${label.replace(/\W+/g, '-')}-${port}.log`);
  const child = spawn(process.execPath, [...nodeArgs, script], {
    env: { ...process.env, ...env, PORT: String(port), HOST },
    stdio: ['ignore', openSync(logFile, 'w'), 'pipe'],
  });
  process.stderr.write(`[${label}] log: ${logFile}\n`);
  child.stderr.on('data', (chunk) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) process.stderr.write(`[${label}] ${line}\n`);
  });
  const url = `http://${HOST}:${port}`;
  await waitForHttp(`${url}${readyPath}`, child);
  return {
    url,
    pid: child.pid,
    /** SIGTERM (graceful: a --cpu-prof profile is written on exit), SIGKILL after a grace period. */
    stop: () =>
      new Promise((resolve) => {
        if (exited(child)) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

module.exports = { startServer, freePort };
