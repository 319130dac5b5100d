'use strict';
// The compiled service (`npx nest build` → dist/). Bench scripts are plain JS and require these,
// so they measure exactly the code `npm start` runs.
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const DIST = join(ROOT, 'dist');

module.exports = {
  ROOT,
  DIST,
  SERVICE_ENTRY: join(DIST, 'apps/channel-service/src/main.js'),
  require: {
    appConfig: () => require(join(DIST, 'apps/channel-service/src/config/app-config.js')),
    configDefaults: () => require(join(DIST, 'apps/channel-service/src/config/config-defaults.js')),
    bootstrap: () => require(join(DIST, 'apps/channel-service/src/bootstrap.js')),
    runMigrations: () => require(join(DIST, 'apps/channel-service/src/database/run-migrations.js')),
    summaryRepository: () => require(join(DIST, 'apps/channel-service/src/summary/summary.repository.js')),
    channelSummary: () => require(join(DIST, 'libs/blocks-channel-summary/src/index.js')),
    api: () => require(join(DIST, 'libs/qhorus-api/src/index.js')),
  },
};
