import { ApiClient, waitFor } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const MAX_MESSAGES = 20;
const BATCH_BODY_LIMIT = 16 * 1024;
const BATCH = '/api/v1/channels/bulk/messages/batch';

describe('POST /channels/{name}/messages/batch', () => {
  let t: TestApp;
  let ana: ApiClient;
  let bo: ApiClient;
  const lastSeq = async (channel = 'bulk'): Promise<number> => (await ana.get(`/api/v1/channels/${channel}`)).body.lastSeq;

  beforeAll(async () => {
    t = await startTestApp('batch-post', {
      inProcessQueue: true,
      env: { QHORUS_BATCH_MAX_MESSAGES: String(MAX_MESSAGES), QHORUS_BATCH_BODY_LIMIT_BYTES: String(BATCH_BODY_LIMIT), QHORUS_BODY_LIMIT_BYTES: '4096' },
    });
    ana = await t.agent('ana');
    bo = await t.agent('bo');
    expect((await ana.post('/api/v1/channels', { name: 'bulk', summaryThreshold: 5 })).status).toBe(201);
    expect((await ana.post('/api/v1/channels', { name: 'closed', members: ['ana'] })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it('writes every message with consecutive seqs, in order, and answers them all', async () => {
    const before = await lastSeq();
    const res = await ana.post(BATCH, {
      messages: [
        { type: 'QUERY', content: 'which build is green?', target: 'bo' },
        { type: 'STATUS', content: 'looking', topic: 'build' },
        { type: 'RESPONSE', content: 'build 12', inReplyTo: before + 1 },
      ],
    });
    expect(res.status).toBe(201);
    const seqs = res.body.messages.map((m: { seq: number }) => m.seq);
    expect(seqs).toEqual([before + 1, before + 2, before + 3]);
    expect(res.body.messages[0]).toMatchObject({ type: 'QUERY', sender: 'ana', target: 'bo', correlationId: expect.any(String) });
    expect(res.body.messages[2]).toMatchObject({ type: 'RESPONSE', inReplyTo: before + 1 });
    const read = await ana.get(`/api/v1/channels/bulk/messages?afterSeq=${before}`);
    expect(read.body.map((m: { content: string }) => m.content)).toEqual(['which build is green?', 'looking', 'build 12']);
  });

  it('a reply by inReplyTo alone to an earlier message of the same batch joins its thread, as single posts do (chains too)', async () => {
    expect((await ana.post('/api/v1/channels', { name: 'joined' })).status).toBe(201);
    const base = await lastSeq('joined');
    const res = await ana.post('/api/v1/channels/joined/messages/batch', {
      messages: [
        { type: 'COMMAND', content: 'deploy', target: 'bo', correlationId: 'job-1' },
        { type: 'STATUS', content: 'on it', inReplyTo: base + 1 },
        { type: 'DONE', content: 'deployed', inReplyTo: base + 2 },
        { type: 'QUERY', content: 'and the docs?', target: 'bo' },
        { type: 'RESPONSE', content: 'done too', inReplyTo: base + 4 },
      ],
    });
    expect(res.status).toBe(201);
    const [command, status, done, query, response] = res.body.messages;
    expect([status.correlationId, done.correlationId]).toEqual([command.correlationId, command.correlationId]);
    expect(response.correlationId).toBe(query.correlationId);
    const threads = (await ana.get('/api/v1/channels/joined/threads')).body;
    expect(threads.map((th: { correlationId: string; status: string }) => [th.correlationId, th.status]).sort()).toEqual([['job-1', 'done'], [query.correlationId, 'answered']].sort());
    expect((await bo.get('/api/v1/inbox')).body.filter((i: { channel: string }) => i.channel === 'joined')).toEqual([]);
  });

  it('a reply into the batch joins the thread of whatever message holds that seq once the batch lands (a single post racing it included)', async () => {
    expect((await ana.post('/api/v1/channels', { name: 'raced' })).status).toBe(201);
    const base = await lastSeq('raced');
    // The batch names base+1 as its own first message; a single post landing first would make base+1 that post.
    const batch = { messages: [{ type: 'QUERY', content: 'ready?', target: 'bo', correlationId: 'ask-1' }, { type: 'RESPONSE', content: 'yes', inReplyTo: base + 1 }] };
    const [single, posted] = await Promise.all([bo.post('/api/v1/channels/raced/messages', { type: 'COMMAND', content: 'first', target: 'ana', correlationId: 'cmd-0' }), ana.post('/api/v1/channels/raced/messages/batch', batch)]);
    expect([single.status, posted.status]).toEqual([201, 201]);
    const reply = posted.body.messages[1];
    const named = single.body.seq === base + 1 ? 'cmd-0' : 'ask-1';
    expect(reply.correlationId).toBe(named);
  });

  it('refuses the whole batch when one message is bad, naming its index and field', async () => {
    const before = await lastSeq();
    const res = await ana.post(BATCH, { messages: [{ content: 'fine' }, { content: 'fine too' }, { type: 'SHOUT', content: 'bad' }] });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([expect.objectContaining({ field: 'messages.2.type' })]);
    expect(res.body.message).toContain('messages.2');
    expect(await lastSeq()).toBe(before);
  });

  it('refuses an inReplyTo that is not earlier than its own place, naming it, and writes nothing', async () => {
    const before = await lastSeq();
    const res = await ana.post(BATCH, { messages: [{ content: 'a' }, { type: 'RESPONSE', content: 'b', inReplyTo: before + 2 }] });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'messages.1.inReplyTo', problems: expect.any(Array) }]);
    expect(await lastSeq()).toBe(before);
  });

  it('answers 413 naming the limit for too many messages and for a body over the batch body limit', async () => {
    const before = await lastSeq();
    const many = await ana.post(BATCH, { messages: Array.from({ length: MAX_MESSAGES + 1 }, (_, i) => ({ content: `m${i}` })) });
    expect(many.status).toBe(413);
    expect(many.body.message).toContain('QHORUS_BATCH_MAX_MESSAGES');
    const big = await ana.post(BATCH, { messages: Array.from({ length: 5 }, () => ({ content: 'x'.repeat(4000) })) });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large', message: expect.stringContaining('QHORUS_BATCH_BODY_LIMIT_BYTES') });
    expect(await lastSeq()).toBe(before);
    // The batch route's own limit: a body over the ordinary limit but under the batch one is fine.
    const mid = await ana.post(BATCH, { messages: Array.from({ length: 2 }, () => ({ content: 'y'.repeat(3000) })) });
    expect(mid.status).toBe(201);
    expect((await ana.post('/api/v1/channels/bulk/messages', { content: 'z'.repeat(5000) })).status).toBe(413);
  });

  it('makes a retried batch safe with Idempotency-Key (message i keyed <key>:<i>)', async () => {
    const body = { messages: [{ content: 'first' }, { content: 'second' }] };
    const first = await ana.post(BATCH, body, { 'idempotency-key': 'import-7' });
    expect(first.status).toBe(201);
    const before = await lastSeq();
    const again = await ana.post(BATCH, body, { 'idempotency-key': 'import-7' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.messages.map((m: { id: string }) => m.id)).toEqual(first.body.messages.map((m: { id: string }) => m.id));
    expect(await lastSeq()).toBe(before);
    const different = await ana.post(BATCH, { messages: [{ content: 'other' }, { content: 'second' }] }, { 'idempotency-key': 'import-7' });
    expect(different.status).toBe(409);
    // A prefix or an extension of the original is a different batch too, not a replay of part of it.
    for (const messages of [[{ content: 'first' }], [{ content: 'first' }, { content: 'second' }, { content: 'third' }]]) {
      const res = await ana.post(BATCH, { messages }, { 'idempotency-key': 'import-7' });
      expect([messages.length, res.status]).toEqual([messages.length, 409]);
    }
    expect(await lastSeq()).toBe(before);
  });

  it('answers a replay only while the sender may still read the channel: after leaving a private channel it is a 404', async () => {
    expect((await ana.post('/api/v1/channels', { name: 'crew', members: ['ana', 'bo'] })).status).toBe(201);
    const batch = { messages: [{ content: 'from bo' }] };
    expect((await bo.post('/api/v1/channels/crew/messages/batch', batch, { 'idempotency-key': 'bo-1' })).status).toBe(201);
    expect((await bo.post('/api/v1/channels/crew/messages', { content: 'single' }, { 'idempotency-key': 'bo-2' })).status).toBe(201);
    expect((await bo.post('/api/v1/channels/crew/messages/batch', batch, { 'idempotency-key': 'bo-1' })).status).toBe(200);
    expect((await ana.patch('/api/v1/channels/crew', { members: ['ana'] })).status).toBe(200);
    const missing = await bo.post('/api/v1/channels/crew/messages/batch', batch, { 'idempotency-key': 'bo-1' });
    const single = await bo.post('/api/v1/channels/crew/messages', { content: 'single' }, { 'idempotency-key': 'bo-2' });
    expect([missing.status, single.status]).toEqual([404, 404]);
    expect(missing.body.message).toBe("Channel 'crew' not found");
    expect(await lastSeq('crew')).toBe(2);
  });

  it('stores the same token estimates as single posts (pendingTokens agrees)', async () => {
    const messages = [{ type: 'QUERY', content: '部署 release 42 now?', correlationId: 'q-1' }, { content: 'short' }, { type: 'EVENT', content: 'cpu 93%' }, { type: 'RESPONSE', content: 'yes, go', correlationId: 'q-1' }];
    for (const name of ['one-by-one', 'all-at-once']) expect((await ana.post('/api/v1/channels', { name, summaryThreshold: 1000 })).status).toBe(201);
    for (const m of messages) expect((await ana.post('/api/v1/channels/one-by-one/messages', m)).status).toBe(201);
    expect((await ana.post('/api/v1/channels/all-at-once/messages/batch', { messages })).status).toBe(201);
    const single = (await ana.get('/api/v1/channels/one-by-one/summary')).body;
    const batched = (await ana.get('/api/v1/channels/all-at-once/summary')).body;
    expect(single.pendingTokens).toBeGreaterThan(0);
    expect(batched.pendingTokens).toBe(single.pendingTokens);
    const next = await ana.post('/api/v1/channels/all-at-once/messages', { content: 'after the batch' });
    const nextSingle = await ana.post('/api/v1/channels/one-by-one/messages', { content: 'after the batch' });
    expect(next.status).toBe(201);
    expect(nextSingle.status).toBe(201);
    expect((await ana.get('/api/v1/channels/all-at-once/summary')).body.pendingTokens).toBe((await ana.get('/api/v1/channels/one-by-one/summary')).body.pendingTokens);
  });

  it('summarises a batch that crosses the threshold, covering all of it', async () => {
    const res = await ana.post(BATCH, { messages: Array.from({ length: 12 }, (_, i) => ({ content: `step ${i} done`, topic: 'deploy' })) });
    expect(res.status).toBe(201);
    const through = res.body.messages[11].seq;
    await waitFor(async () => (await ana.get('/api/v1/channels/bulk/summary')).body.coversThroughSeq >= through, 'the batch to be summarised');
  });

  it('treats a private channel as missing for a non-member, and refuses a foreign sender', async () => {
    expect((await bo.post('/api/v1/channels/closed/messages/batch', { messages: [{ content: 'hi' }] })).status).toBe(404);
    const spoofed = await bo.post(BATCH, { messages: [{ content: 'ok' }, { content: 'me?', sender: 'ana' }] });
    expect(spoofed.status).toBe(403);
    expect(spoofed.body.message).toContain('messages.1');
    expect((await ana.post(BATCH, { messages: [] })).status).toBe(400);
    expect((await ana.post(BATCH, { messages: 'no' })).status).toBe(400);
  });
});
