#!/usr/bin/env node
'use strict';
// Who calls a hot function: the stacks (up to `depth` frames) under which it spends self time.
//   node bench/tools/cpu-profile-callers.js <file.cpuprofile> [--window=<figure>] <functionName> [depth]
const { frameKey, loadProfile } = require('./load-profile');

const { args, byId, parent, self } = loadProfile(process.argv.slice(2));
const [name, depthArg] = args;
const DEPTH = Number(depthArg ?? 8);
const stacks = new Map();
let total = 0;
for (const [id, t] of self) {
  if (byId.get(id).callFrame.functionName !== name) continue;
  total += t;
  const chain = [];
  for (let p = parent.get(id); p !== undefined && chain.length < DEPTH; p = parent.get(p)) chain.push(frameKey(byId.get(p)));
  const k = chain.join('\n    ← ');
  stacks.set(k, (stacks.get(k) ?? 0) + t);
}
console.log(`${name}: ${(total / 1e6).toFixed(2)} s self`);
for (const [k, t] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`\n${((t / total) * 100).toFixed(1)} %\n    ← ${k}`);
