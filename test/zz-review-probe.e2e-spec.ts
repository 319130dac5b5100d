import { startTestApp, TestApp } from './support/test-app';

describe('review probe', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp('reviewprobe', { inProcessQueue: true }); });
  afterAll(() => t?.close());
  it('probes', async () => {
    const a = await t.agent('alice');
    await a.post('/api/v1/channels', { name: 'c1' });
    await a.post('/api/v1/channels/c1/messages', { content: 'hi' });
    const show = async (label: string, p: Promise<any>) => { const r = await p; console.log(label, r.status, JSON.stringify(r.body).slice(0, 200)); };
    await show('afterSeq huge', a.get('/api/v1/channels/c1/messages?afterSeq=99999999999999999999999'));
    await show('afterSeq 2^63', a.get('/api/v1/channels/c1/messages?afterSeq=9223372036854775808'));
    await show('inReplyTo huge', a.post('/api/v1/channels/c1/messages', { content: 'x', inReplyTo: 1e20 }));
    await show('inReplyTo 2^63', a.post('/api/v1/channels/c1/messages', '{"content":"x","inReplyTo":9223372036854775808}'));
    await show('limit huge', a.get('/api/v1/channels/c1/messages?limit=99999999999999999999999'));
    await show('expectedVersion huge', a.put('/api/v1/channels/c1/summary', { text: 'x', expectedVersion: 1e20 }));
    await show('history limit', a.get('/api/v1/channels/c1/summary/history?limit=1e3'));
    await show('thread nul', a.get('/api/v1/channels/c1/threads/a%00b/summary'));
    await show('channel nul', a.get('/api/v1/channels/a%00b'));
    await show('content nul', a.post('/api/v1/channels/c1/messages', { content: 'a\u0000b' }));
    await show('topic nul', a.post('/api/v1/channels/c1/messages', { content: 'a', topic: 'a\u0000b' }));
    await show('meta nul', a.post('/api/v1/channels/c1/messages', { content: 'a', metadata: { k: 'a\u0000b' } }));
    await show('idem nul', a.post('/api/v1/channels/c1/messages', { content: 'a' }, { 'idempotency-key': 'k\u0001' }));
    await show('desc nul', a.post('/api/v1/channels', { name: 'c2', description: 'a\u0000b' }));
    await show('override nul', a.put('/api/v1/channels/c1/summary', { text: 'a\u0000b' }));
    await show('ctx', a.get('/api/v1/channels/c1/context?maxTokens=1e9'));
  });
});
