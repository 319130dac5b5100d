#!/usr/bin/env node
'use strict';
// Who calls a hot function: the stacks (up to DEPTH frames) under which `name` spends self time.
//   node bench/tools/cpu-profile-callers.js <file.cpuprofile> <functionName> [depth]
const { readFileSync } = require('node:fs');

const [file, name, depthArg] = process.argv.slice(2);
const DEPTH = Number(depthArg ?? 8);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const self = new Map();
profile.samples.forEach((s, i) => self.set(s, (self.get(s) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const frame = (n) => `${n.callFrame.functionName || '(anon)'}@${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${n.callFrame.lineNumber + 1}`;
const stacks = new Map();
let total = 0;
for (const [id, t] of self) {
  const n = byId.get(id);
  if (n.callFrame.functionName !== name) continue;
  total += t;
  const chain = [];
  let p = parent.get(id);
  while (p !== undefined && chain.length < DEPTH) {
    chain.push(frame(byId.get(p)));
    p = parent.get(p);
  }
  const key = chain.join('\n    ← ');
  stacks.set(key, (stacks.get(key) ?? 0) + t);
}
console.log(`${name}: ${(total / 1e6).toFixed(2)} s self`);
for (const [k, t] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`\n${((t / total) * 100).toFixed(1)} %\n    ← ${k}`);
