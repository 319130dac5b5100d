#!/usr/bin/env node
'use strict';
// Self time by area (package / service folder) and by function, as a share of busy time.
//   node bench/tools/cpu-profile-top.js <file.cpuprofile> [--window=<figure>] [topN]
const { frameKey, loadProfile, share } = require('./load-profile');

const { args, byId, self, busy } = loadProfile(process.argv.slice(2));
const TOP = Number(args[0] ?? 40);

function area(url) {
  if (!url) return '(native/vm)';
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.includes('/dist/')) return `qhorus:${url.split('/dist/')[1].split('/').slice(0, 4).join('/')}`;
  return url;
}
const fns = new Map();
const areas = new Map();
for (const [id, t] of self) {
  const n = byId.get(id);
  fns.set(frameKey(n), (fns.get(frameKey(n)) ?? 0) + t);
  areas.set(area(n.callFrame.url), (areas.get(area(n.callFrame.url)) ?? 0) + t);
}
console.log(`busy (non-idle) time sampled: ${(busy / 1e6).toFixed(2)} s\n\nself time by area:`);
for (const [a, t] of [...areas].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`${share(t, busy)}  ${a}`);
console.log('\nself time by function:');
for (const [f, t] of [...fns].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`${share(t, busy)}  ${f}`);
