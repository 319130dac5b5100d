#!/usr/bin/env node
'use strict';
// Inclusive (self + callees) time per function, as a share of busy time: which layer of the
// request pipeline costs what. Optionally only frames whose name/file contains `filter`.
//   node bench/tools/cpu-profile-inclusive.js <file.cpuprofile> [--window=<figure>] [filter] [topN]
const { frameKey, loadProfile, share } = require('./load-profile');

const { args, byId, parent, self, busy } = loadProfile(process.argv.slice(2));
const [filter = '', topArg] = args;
const inclusive = new Map();
for (const [id, t] of self) {
  const seen = new Set();
  for (let p = id; p !== undefined; p = parent.get(p)) {
    const k = frameKey(byId.get(p));
    if (seen.has(k)) continue; // recursion: a frame counts once per sample
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + t);
  }
}
console.log(`busy: ${(busy / 1e6).toFixed(2)} s`);
for (const [k, t] of [...inclusive].filter(([k]) => k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 50))) {
  console.log(`${share(t, busy)}  ${k}`);
}
