import { Writable } from 'node:stream';
import { startTestApp } from './support/test-app';
it('debug', async () => {
  const lines: string[] = [];
  const logs = new Writable({ write(c, _e, d) { lines.push(String(c)); d(); } });
  const t = await startTestApp('dbg', { inProcessQueue: true, logDestination: logs, env: { LOG_LEVEL: 'info' } });
  t.app.getHttpAdapter().getInstance().addHook('onRequest', (req: any, _r: any, done: any) => { console.log('RAW URL', req.raw.url, req.url); done(); });
  await t.admin.get('/health');
  await new Promise((r) => setTimeout(r, 300));
  console.log(lines.filter(l => /request completed/.test(l)).join(''));
  await t.close();
});
