#!/usr/bin/env node
'use strict';
// Summarises a V8 .cpuprofile (from `npm run bench -- --profile`): self time by function and by
// package/area, so the hot spots are visible without opening DevTools.
//   node bench/tools/cpu-profile-top.js <file.cpuprofile> [topN]
const { readFileSync } = require('node:fs');

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-profile-top.js <file.cpuprofile> [topN]');
  process.exit(1);
}
const TOP = Number(topArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

function area(url) {
  if (!url) return '(native/vm)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.includes('/dist/')) return `qhorus:${url.split('/dist/')[1].split('/').slice(0, 4).join('/')}`;
  if (url.startsWith('node:')) return url;
  return url;
}

const fns = new Map();
const areas = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  const cf = n.callFrame;
  const key = `${cf.functionName || '(anonymous)'}  ${cf.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${cf.lineNumber + 1}`;
  fns.set(key, (fns.get(key) ?? 0) + t);
  const a = area(cf.url);
  areas.set(a, (areas.get(a) ?? 0) + t);
}
const pct = (t) => `${((t / total) * 100).toFixed(1).padStart(5)} %`;
console.log(`total sampled: ${(total / 1e6).toFixed(1)} s\n\nself time by area:`);
for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`${pct(t)}  ${a}`);
console.log('\nself time by function:');
for (const [f, t] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`${pct(t)}  ${f}`);
