#!/usr/bin/env node
// `npm run demo`: plays a multi-agent conversation against Qhorus and prints how the channel
// summary evolves. When nothing answers at QHORUS_URL (and it is on this machine), the demo
// starts the embedded service itself (built first if needed) and stops it at the end; with
// `npm start` running in another terminal, it uses that one, and you can watch the same
// channel live on the dashboard.
//
// Knobs (environment): QHORUS_URL (http://localhost:3000), QHORUS_ADMIN_TOKEN (else read from
// QHORUS_DATA_DIR/admin-token, ./.data by default), DEMO_DELAY_MS (pause between messages, 300),
// DEMO_THRESHOLD (the demo channel's summaryThreshold, 6).
'use strict';

const { spawn } = require('node:child_process');
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { buildIfStale, root, SERVICE_ENTRY } = require('./build-if-stale');
const acts = require('./demo-conversation');

const BASE_URL = (process.env.QHORUS_URL || 'http://localhost:3000').replace(/\/+$/, '');
const DATA_DIR = process.env.QHORUS_DATA_DIR || './.data';
const DELAY_MS = Number(process.env.DEMO_DELAY_MS || 300);
const THRESHOLD = Number(process.env.DEMO_THRESHOLD || 6);
const AGENTS = ['planner', 'coder', 'reviewer', 'tester'];
/** Agent tokens from earlier runs, so a second run reuses the same agents. */
const AGENT_CACHE = join(DATA_DIR, 'demo-agents.json');
/** How long to wait for a summary job before moving on. */
const SUMMARY_WAIT_MS = 20_000;
const POLL_MS = 250;
/** How long the embedded service may take to answer /health/live after it is started. */
const START_WAIT_MS = 180_000;
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const tty = process.stdout.isTTY;
const paint = (code) => (text) => (tty ? `\x1b[${code}m${text}\x1b[0m` : String(text));
const bold = paint(1);
const dim = paint(2);
const colour = { planner: paint(35), coder: paint(36), reviewer: paint(33), tester: paint(32) };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function api(method, path, token, body) {
  const res = await fetch(BASE_URL + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

async function must(method, path, token, body, expected) {
  const res = await api(method, path, token, body);
  if (res.status !== expected) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

function adminToken() {
  if (process.env.QHORUS_ADMIN_TOKEN) return process.env.QHORUS_ADMIN_TOKEN;
  const file = join(DATA_DIR, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new Error(`No admin token: set QHORUS_ADMIN_TOKEN, or run from the directory whose ${file} the service wrote.`);
}

/** Reuses cached agent tokens that still work; registers the others (a taken name gets a suffix). */
async function agents(admin) {
  const cache = existsSync(AGENT_CACHE) ? JSON.parse(readFileSync(AGENT_CACHE, 'utf8')) : {};
  const known = cache[BASE_URL] || {};
  const result = {};
  for (const role of AGENTS) {
    const cached = known[role];
    if (cached && (await api('GET', '/api/v1/agents', cached.token)).status === 200) {
      result[role] = cached;
      continue;
    }
    let res = await api('POST', '/api/v1/agents', admin, { name: role });
    if (res.status === 409) res = await api('POST', '/api/v1/agents', admin, { name: `${role}-${Date.now().toString(36)}` });
    if (res.status !== 201) throw new Error(`could not register ${role}: ${res.status} ${JSON.stringify(res.body)}`);
    result[role] = { name: res.body.name, token: res.body.token };
  }
  cache[BASE_URL] = result;
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(AGENT_CACHE, JSON.stringify(cache, null, 2), { mode: 0o600 });
  return result;
}

function printMessage(m, role) {
  const thread = m.correlationId ? dim(` [${m.correlationId}]`) : '';
  const target = m.target ? ` → ${m.target}` : '';
  console.log(`  ${dim(`#${String(m.seq).padStart(2)}`)} ${(colour[role] || String)(role.padEnd(8))} ${m.type.padEnd(8)}${thread}${target}  ${m.content}`);
}

function printSummary(s) {
  const tier = s.annotations.tier || '?';
  console.log(bold(`\n  ── summary v${s.version} · tier ${tier} · covers #1–#${s.coversThroughSeq} of ${s.lastSeq} · ${s.pending} pending ──`));
  for (const line of s.text.split('\n')) console.log(`  │ ${line}`);
  let open = [];
  try {
    open = JSON.parse(s.annotations.openThreads || '[]');
  } catch {
    // not a list: nothing to show
  }
  const list = open.map((t) => `${t.correlationId} (${t.type} by ${t.sender})`).join(', ');
  console.log(`  └ open threads: ${list || 'none'}\n`);
}

/**
 * Waits until no summary job is due (the backlog is under the threshold) and the version holds
 * still across two reads; with `mustAdvance`, until the version has moved past `sinceVersion`.
 */
async function settledSummary(channel, token, sinceVersion, mustAdvance = false) {
  const deadline = Date.now() + SUMMARY_WAIT_MS;
  let last = null;
  for (;;) {
    const s = await must('GET', `/api/v1/channels/${channel}/summary`, token, undefined, 200);
    const settled = s.pending < THRESHOLD && last !== null && last.version === s.version && (!mustAdvance || s.version > sinceVersion);
    if (settled || Date.now() > deadline) return s;
    last = s;
    await sleep(POLL_MS);
  }
}

/**
 * Starts the built service on QHORUS_URL's port (embedded Postgres and in-process jobs unless
 * DATABASE_URL / REDIS_URL say otherwise), and waits until it answers. Its logs are kept quiet.
 */
async function startEmbeddedService() {
  const url = new URL(BASE_URL);
  if (!LOCAL_HOSTS.has(url.hostname)) throw new Error(`Qhorus is not answering at ${BASE_URL}, and that is not this machine: start it there, or set QHORUS_URL.`);
  buildIfStale();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  console.log(dim(`Nothing answers at ${BASE_URL}: starting the embedded service there (data in ${DATA_DIR}); it stops when the demo ends.`));
  const env = { ...process.env, PORT: port, HOST: url.hostname.replace(/^\[|\]$/g, ''), QHORUS_DATA_DIR: DATA_DIR, LOG_LEVEL: process.env.LOG_LEVEL || 'warn' };
  const child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    if (exited !== null) throw new Error(`the embedded service exited (code ${exited}) before answering at ${BASE_URL}`);
    if ((await fetch(`${BASE_URL}/health/live`).catch(() => null))?.ok) return child;
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`the embedded service did not answer at ${BASE_URL} within ${START_WAIT_MS / 1000} s`);
    }
    await sleep(POLL_MS);
  }
}

/** Stops a service the demo started, and waits for it to exit. */
function stopService(child) {
  return new Promise((resolve) => {
    if (!child || child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

async function main() {
  const health = await fetch(`${BASE_URL}/health/live`).catch(() => null);
  const started = health ? null : await startEmbeddedService();
  try {
    await play();
  } finally {
    await stopService(started);
  }
}

async function play() {
  const admin = adminToken();
  const team = await agents(admin);
  const channel = `checkout-v2-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '').toLowerCase()}`;
  await must('POST', '/api/v1/channels', team.planner.token, {
    name: channel,
    description: 'Shipping checkout-v2: a planner, a coder, a reviewer and a tester',
    summaryThreshold: THRESHOLD,
  }, 201);
  console.log(bold(`Qhorus demo: channel '${channel}' at ${BASE_URL} (summary every ${THRESHOLD} messages)`));
  console.log(`Watch it live: ${BASE_URL}/#/channels/${channel}  (sign in with the admin token)\n`);

  const threadSeq = {};
  let version = 0;
  for (const act of acts) {
    console.log(bold(`▶ ${act.title}`));
    for (const [role, type, content, options = {}] of act.messages) {
      const body = { type, content, topic: options.topic };
      const thread = options.thread || options.re;
      if (thread) body.correlationId = thread;
      if (options.re && threadSeq[options.re]) body.inReplyTo = threadSeq[options.re];
      if (options.target) body.target = team[options.target].name;
      const m = await must('POST', `/api/v1/channels/${channel}/messages`, team[role].token, body, 201);
      if (options.thread) threadSeq[options.thread] = m.seq;
      printMessage(m, role);
      await sleep(DELAY_MS);
    }
    const s = await settledSummary(channel, team.planner.token);
    if (s.version > version) printSummary(s);
    else console.log(dim(`\n  (no new summary yet: ${s.pending} message(s) pending, the next one comes at ${THRESHOLD})\n`));
    version = s.version;
  }

  const final = await must('GET', `/api/v1/channels/${channel}/summary`, team.planner.token, undefined, 200);
  if (final.pending > 0) {
    console.log(bold('▶ Summarise the rest now (POST …/summary/refresh)'));
    await must('POST', `/api/v1/channels/${channel}/summary/refresh`, team.planner.token, {}, 202);
    printSummary(await settledSummary(channel, team.planner.token, version, true));
  }
  const history = await must('GET', `/api/v1/channels/${channel}/summary/history`, team.planner.token, undefined, 200);
  console.log(bold('Summary history (newest first):'));
  for (const h of history) console.log(`  v${h.version}  tier ${(h.annotations.tier || '?').padEnd(11)} covers #${h.coversFromSeq}–#${h.coversThroughSeq}  by ${h.updatedBy}`);
  console.log(`\nDashboard: ${BASE_URL}/#/channels/${channel}`);
}

main().catch((err) => {
  console.error(`demo failed: ${err.message}`);
  process.exit(1);
});
