#!/usr/bin/env node
// The `qhorus` command line: runs the compiled CLI (dist/apps/qhorus-cli), building first when
// the sources are newer (as `npm start` does; the build's output goes to stderr).
'use strict';
const { join } = require('node:path');
const { buildIfStale, root } = require('../scripts/build-if-stale');

const entry = join(root, 'dist/apps/qhorus-cli/src/main.js');
buildIfStale({ entry, stdio: ['ignore', 2, 2] });
require(entry)
  .run(process.argv)
  .then((code) => {
    process.exitCode = code;
  });
