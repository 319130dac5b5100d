import { startTestApp } from './support/test-app';
it('debug', async () => {
  const t = await startTestApp('dbgdash', { inProcessQueue: true });
  const r = await fetch(t.baseUrl + '/app.js'); console.log(r.status);
  await new Promise((r) => setTimeout(r, 500));
  await t.close();
});
