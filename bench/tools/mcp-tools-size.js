#!/usr/bin/env node
'use strict';
// What `tools/list` costs an agent's context on every turn: the compiled service (Postgres, no
// Redis needed for this) answers tools/list to a registered agent and to the admin; the figure is
// the JSON text of the tools array, as characters, characters ÷ 4 and the project's own token
// estimate (estimateTokens of @qhorus/blocks-summarisation).
//   node bench/tools/mcp-tools-size.js      (after `npx nest build`)
const cfg = require('../config');
const dist = require('../lib/dist');
const { createDatabase } = require('../lib/postgres');
const { startService } = require('../lib/servers');
const { runStamp } = require('../lib/stamp');

const CHARS_PER_TOKEN = 4;
const { estimateTokens } = require(require('node:path').join(dist.DIST, 'libs/blocks-summarisation/src/index.js'));

async function rpc(url, token, body) {
  const res = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function measure(url, token) {
  const { result } = await rpc(url, token, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const text = JSON.stringify(result.tools);
  return { tools: result.tools.length, chars: text.length, charsDiv4: Math.ceil(text.length / CHARS_PER_TOKEN), estimateTokens: estimateTokens(text) };
}

(async () => {
  const db = await createDatabase(runStamp(), 'mcpsize');
  const service = await startService({ databaseUrl: db.url, queuePrefix: `qbench-mcpsize-${process.pid}`, poolSize: 2 });
  try {
    const res = await fetch(`${service.url}/api/v1/agents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cfg.ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'size-probe' }),
    });
    const { token } = await res.json();
    const figures = { at: new Date().toISOString(), agent: await measure(service.url, token), admin: await measure(service.url, cfg.ADMIN_TOKEN) };
    console.log(JSON.stringify(figures));
  } finally {
    await service.stop();
    await db.drop();
  }
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
