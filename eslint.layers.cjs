'use strict';
/**
 * The service's inner layer rule, as data (CommonJS, so a test can require it): the feature
 * folders of apps/channel-service/src and the others each may import (docs/architecture.md, "The
 * feature map"). eslint.config.mjs turns it into eslint-plugin-boundaries elements and policies.
 * Imports only run down: `layerOrder` refuses the table if it has a cycle, so no two folders can
 * ever depend on each other. A new folder, or a new dependency, is a line here.
 */
const APP_FEATURES = {
  // Foundations: no feature below them.
  config: [],
  common: ['config'],
  telemetry: [],
  logging: ['config', 'telemetry'],
  database: ['config'],
  bus: ['config', 'database'],
  'rate-limit': ['common', 'config'],
  auth: ['bus', 'common', 'config', 'database', 'rate-limit'],
  audit: ['auth', 'common', 'config', 'database'],
  docs: ['auth', 'common', 'config'],
  cost: ['auth', 'common', 'config', 'database', 'telemetry'],
  // The domain: channels, the stored message, threads, summaries, then posting and reading.
  channels: ['audit', 'auth', 'common', 'config', 'cost', 'database'],
  'message-store': ['auth', 'database', 'docs'],
  threads: ['auth', 'channels', 'common', 'config', 'database', 'docs', 'message-store'],
  summary: ['auth', 'channels', 'common', 'config', 'cost', 'database', 'docs', 'message-store', 'telemetry', 'threads'],
  projection: ['auth', 'channels', 'common', 'database', 'docs', 'message-store', 'summary'],
  messages: ['auth', 'channels', 'common', 'config', 'database', 'message-store', 'projection', 'telemetry', 'threads'],
  // Above the domain: real time, data lifecycle, search, reach, operations.
  realtime: ['auth', 'bus', 'channels', 'common', 'config', 'message-store', 'rate-limit', 'summary'],
  retention: ['audit', 'config', 'database'],
  lifecycle: ['audit', 'auth', 'channels', 'common', 'config', 'database', 'message-store', 'summary'],
  export: ['auth', 'channels', 'common', 'config', 'database', 'message-store', 'summary'],
  search: ['auth', 'channels', 'common', 'config', 'database', 'messages'],
  metrics: ['channels', 'cost', 'database', 'message-store', 'messages', 'summary'],
  webhooks: ['auth', 'channels', 'common', 'config', 'database', 'message-store', 'metrics', 'summary', 'telemetry'],
  health: ['auth', 'common', 'config', 'database', 'summary'],
  dashboard: [],
  mcp: ['auth', 'bus', 'channels', 'common', 'config', 'docs', 'message-store', 'messages', 'projection', 'search', 'summary', 'telemetry', 'threads'],
};

/** The features in an order where each comes after everything it imports; throws on a cycle or an unknown name. */
function layerOrder(features) {
  const order = [];
  const state = new Map();
  const visit = (name, path) => {
    if (!(name in features)) throw new Error(`eslint.layers.cjs: APP_FEATURES names an unknown folder '${name}' (from ${path.join(' → ')})`);
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`eslint.layers.cjs: APP_FEATURES has a cycle: ${[...path, name].join(' → ')}`);
    state.set(name, 'visiting');
    for (const dep of features[name]) visit(dep, [...path, name]);
    state.set(name, 'done');
    order.push(name);
  };
  for (const name of Object.keys(features)) visit(name, []);
  return order;
}

module.exports = { APP_FEATURES, layerOrder };
