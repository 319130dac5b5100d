'use strict';
// Shared by the cpu-profile-* tools: loads a .cpuprofile and sums self time per node.
// `--window=<figure substring>` keeps only the samples taken during the bench's measured service
// runs of that figure (windows.json, written next to the profile by `npm run bench -- --profile`;
// V8 stamps samples with CLOCK_MONOTONIC µs, the clock the bench records the runs with).
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

function loadProfile(argv) {
  const args = [...argv];
  const w = args.findIndex((a) => a.startsWith('--window='));
  const wanted = w >= 0 ? args.splice(w, 1)[0].slice('--window='.length) : null;
  const file = args.shift();
  if (!file) throw new Error('usage: <tool> <file.cpuprofile> [--window=<figure>] …');
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  let keep = () => true;
  if (wanted !== null) {
    const windowsFile = join(dirname(file), 'windows.json');
    if (!existsSync(windowsFile)) throw new Error(`no ${windowsFile}: profile with npm run bench -- --profile`);
    // Node names profiles CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile.
    const pid = Number(file.split('/').pop().split('.')[3]);
    const windows = JSON.parse(readFileSync(windowsFile, 'utf8')).filter((x) => x.title.includes(wanted) && x.pid === pid);
    if (windows.length === 0) throw new Error(`no measured run matches '${wanted}'`);
    keep = (stamp) => windows.some((x) => stamp >= x.fromUs && stamp <= x.toUs);
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map(); // node id → µs, idle excluded
  let stamp = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    stamp += dt;
    if (!keep(stamp) || byId.get(id).callFrame.functionName === '(idle)') return;
    self.set(id, (self.get(id) ?? 0) + dt);
  });
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  return { args, byId, parent, self, busy };
}

const shortUrl = (url) => url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/');
const frameKey = (n) => `${n.callFrame.functionName || '(anonymous)'}  ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
const share = (t, busy) => `${((t / busy) * 100).toFixed(1).padStart(5)} %`;

module.exports = { loadProfile, frameKey, share };
