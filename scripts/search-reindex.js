#!/usr/bin/env node
// `npm run search:reindex`: after changing QHORUS_SEARCH_CONFIG, rebuilds the message search index
// with it (apps/channel-service/src/search/reindex-command.ts). Same environment as `npm start`.
'use strict';
const { join } = require('node:path');
const { buildIfStale, root } = require('./build-if-stale');

buildIfStale({ stdio: ['ignore', 2, 2] });
const { reindex } = require(join(root, 'dist/apps/channel-service/src/search/reindex-command'));
reindex(process.env, (line) => process.stdout.write(`${line}\n`)).then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`search:reindex: ${err.message}\n`);
    process.exit(1);
  },
);
