import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';

describe('scratch', () => {
  let t: TestApp; let proxy: TcpProxy;
  beforeAll(async () => {
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5432 });
    t = await startTestApp('scratch', { env: { QHORUS_DB_QUERY_TIMEOUT_MS: '3000' }, connectVia: (url) => { const u = new URL(url); u.port = String(proxy.port); return u.toString(); } });
  });
  afterAll(async () => { await proxy.restore(); await t?.close(); await proxy.close(); });
  it('probes', async () => {
    const a = await t.agent('alice');
    await a.post('/api/v1/channels', { name: 'c1' });
    for (let i = 0; i < 5; i++) await a.post('/api/v1/channels/c1/messages', { content: 'x' });
    proxy.stall();
    const t0 = Date.now();
    const results = await Promise.all([
      a.post('/api/v1/channels/c1/messages', { content: 'y' }).then(r => [r.status, Date.now() - t0, JSON.stringify(r.body).slice(0, 150)]).catch(e => ['err', Date.now() - t0, String(e)]),
      a.get('/api/v1/channels/c1').then(r => [r.status, Date.now() - t0]).catch(e => ['err', Date.now() - t0, String(e)]),
      t.anonymous.get('/health').then(r => [r.status, Date.now() - t0, JSON.stringify(r.body).slice(0, 200)]),
    ].map(p => Promise.race([p, new Promise(r => setTimeout(() => r(['still waiting after 40s']), 40000))])));
    console.log(JSON.stringify(results));
    await proxy.restore();
    const t1 = Date.now();
    const r = await a.post('/api/v1/channels/c1/messages', { content: 'z' });
    console.log('after restore', r.status, Date.now() - t1, r.body.seq);
  }, 120000);
});
