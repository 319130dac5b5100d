import { startTestApp, TestApp } from '../support/test-app';

describe('scratch', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp('scratch'); });
  afterAll(() => t?.close());
  it('probes', async () => {
    const a = await t.agent('alice');
    await a.post('/api/v1/channels', { name: 'c1' });
    const show = async (label: string, p: Promise<any>) => { const r = await p; console.log(label, r.status, JSON.stringify(r.body).slice(0, 300), r.headers.get('content-type')); };
    await show('malformed', a.request('POST', '/api/v1/channels/c1/messages', '{"content": '));
    await show('big body', a.request('POST', '/api/v1/channels/c1/messages', JSON.stringify({ content: 'x'.repeat(1100000) })));
    await show('unknown route', a.get('/api/v1/nope'));
    await show('unknown root', a.get('/nope'));
    await show('text/plain', fetch(t.baseUrl + '/api/v1/channels/c1/messages', { method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'text/plain' }, body: 'hi' }).then(async r => ({ status: r.status, body: await r.text(), headers: r.headers })));
    for (const n of [50, 5000, 100000]) await show('deep'+n, a.request('POST', '/api/v1/channels/c1/messages', '{"content":"x","metadata":' + '{"a":'.repeat(n) + '1' + '}'.repeat(n) + '}'));
    await show('deeparr', a.request('POST', '/api/v1/channels/c1/messages', '{"content":"x","metadata":{"a":' + '['.repeat(200000) + ']'.repeat(200000) + '}}'));
    await show('proto', a.request('POST', '/api/v1/channels/c1/messages', '{"content":"x","__proto__":{"a":1}}'));
    await show('method', a.request('DELETE', '/api/v1/channels/c1'));
    await show('limit', a.get('/api/v1/channels/c1/messages?limit=abc'));
    await show('limit2', a.get('/api/v1/channels/c1/messages?limit=1e400'));
    await show('limit3', a.get('/api/v1/channels/c1/messages?afterSeq=99999999999999999999999'));
    await show('badname', a.get('/api/v1/channels/%E0%A4%A'));
    await show('summary', a.get('/api/v1/channels/c1/summary?x=1'));
  });
});
