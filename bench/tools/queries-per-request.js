require('reflect-metadata');
const pg = require('pg');
const counts = new Map();
const orig = pg.Client.prototype.query;
let on = false;
pg.Client.prototype.query = function (q, ...rest) {
  if (on) { const text = typeof q === 'string' ? q : q?.text; const k = String(text).replace(/\s+/g,' ').slice(0, 90); counts.set(k, (counts.get(k) ?? 0) + 1); }
  return orig.call(this, q, ...rest);
};
const cfg = require('../config');
const dist = require('../lib/dist');
const { JsonClient } = require('../lib/http');
const { createDatabase } = require('../lib/postgres');
const { deleteRedisPrefix } = require('../lib/redis');
(async () => {
  const db = await createDatabase('dbg' + process.pid, 'count');
  const { loadConfig } = dist.require.appConfig(); const { createApp } = dist.require.bootstrap();
  const prefix = 'qbench-dbg' + process.pid;
  const app = await createApp(loadConfig({ DATABASE_URL: db.url, REDIS_URL: cfg.REDIS_URL, QHORUS_QUEUE_PREFIX: prefix, QHORUS_ADMIN_TOKEN: cfg.ADMIN_TOKEN, LOG_LEVEL: 'warn', QHORUS_RATE_LIMIT_PER_SECOND: '100000000', QHORUS_RATE_LIMIT_BURST: '100000000' }));
  await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const admin = new JsonClient(url, cfg.ADMIN_TOKEN);
  const { token } = await admin.expectOk('POST', '/api/v1/agents', { name: 'a1' });
  const a = new JsonClient(url, token);
  await a.expectOk('POST', '/api/v1/channels', { name: 'c1', summaryThreshold: 100000 });
  await a.expectOk('GET', '/api/v1/channels/c1/summary');
  await a.expectOk('POST', '/api/v1/channels/c1/messages', JSON.parse(cfg.POST_BODY));
  await new Promise(r => setTimeout(r, 500));
  on = true;
  for (let i = 0; i < 100; i++) await a.expectOk('GET', '/api/v1/channels/c1/summary');
  on = false; console.log('GET x100', [...counts]); counts.clear(); on = true;
  for (let i = 0; i < 100; i++) await a.expectOk('POST', '/api/v1/channels/c1/messages', JSON.parse(cfg.POST_BODY));
  await new Promise(r => setTimeout(r, 500));
  on = false; console.log('POST x100', [...counts]);
  await app.close(); await db.drop(); await deleteRedisPrefix(prefix);
})();
