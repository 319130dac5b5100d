import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as PgClient } from 'pg';
import { MessageType } from '@qhorus/api';
import { MessageFilter, NO_FILTER } from '../apps/channel-service/src/messages/message-filter';
import { pageSql } from '../apps/channel-service/src/messages/messages.repository';
import { ApiClient } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { startTestApp, TestApp } from './support/test-app';

const messages = (client: ApiClient, channel: string, query: string) =>
  client.get(`/api/v1/channels/${channel}/messages?${query}`).then((r) => {
    if (r.status !== 200) throw new Error(`${query}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as any[];
  });
const seqs = (list: any[]) => list.map((m) => m.seq);

describe('message reads: filters, backward paging, read cursors', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient;
  let bobMcp: Client;

  beforeAll(async () => {
    t = await startTestApp('message-reads');
    [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((n) => t.agent(n)));
    bobMcp = await connectMcp(t.baseUrl, bob.token);
    await alice.post('/api/v1/channels', { name: 'mixed', summaryThreshold: 1000 });
    const posts: [ApiClient, Record<string, unknown>][] = [
      [alice, { type: 'QUERY', content: 'q1', target: 'bob', correlationId: 'c1', topic: 'build' }], // 1
      [bob, { type: 'STATUS', content: 's1', topic: 'build' }], // 2
      [bob, { type: 'EVENT', content: 'cpu' }], // 3
      [bob, { type: 'RESPONSE', content: 'r1', correlationId: 'c1', target: 'alice', topic: 'build' }], // 4
      [carol, { type: 'COMMAND', content: 'c2', target: 'bob', correlationId: 'c2', topic: 'deploy' }], // 5
      [bob, { type: 'STATUS', content: 's2', topic: 'deploy' }], // 6
      [bob, { type: 'DONE', correlationId: 'c2' }], // 7
      [alice, { type: 'STATUS', content: 's3' }], // 8
    ];
    for (const [who, body] of posts) expect((await who.post('/api/v1/channels/mixed/messages', body)).status).toBe(201);
  });
  afterAll(async () => {
    await bobMcp?.close();
    await t?.close();
  });

  it('filters by type (comma list, any case), topic, sender, correlationId and target, EVENTs only when asked', async () => {
    expect(seqs(await messages(alice, 'mixed', 'type=QUERY,command'))).toEqual([1, 5]);
    expect(seqs(await messages(alice, 'mixed', 'type=EVENT'))).toEqual([3]);
    expect(seqs(await messages(alice, 'mixed', 'topic=build'))).toEqual([1, 2, 4]);
    expect(seqs(await messages(alice, 'mixed', 'sender=bob'))).toEqual([2, 4, 6, 7]);
    expect(seqs(await messages(alice, 'mixed', 'sender=bob&includeEvents=true'))).toEqual([2, 3, 4, 6, 7]);
    expect(seqs(await messages(alice, 'mixed', 'correlationId=c2'))).toEqual([5, 7]);
    expect(seqs(await messages(alice, 'mixed', 'target=bob'))).toEqual([1, 5]);
    expect(seqs(await messages(alice, 'mixed', 'target=bob&type=COMMAND&sender=carol&topic=deploy&correlationId=c2'))).toEqual([5]);
    expect(seqs(await messages(alice, 'mixed', 'sender=nobody'))).toEqual([]);
  });

  it('pages backwards with tail and beforeSeq, every page ascending, and forwards within a range', async () => {
    expect(seqs(await messages(alice, 'mixed', 'tail=3'))).toEqual([6, 7, 8]);
    expect(seqs(await messages(alice, 'mixed', 'beforeSeq=6&limit=2'))).toEqual([4, 5]);
    expect(seqs(await messages(alice, 'mixed', 'beforeSeq=4&limit=2'))).toEqual([1, 2]);
    expect(seqs(await messages(alice, 'mixed', 'tail=2&beforeSeq=8&sender=bob'))).toEqual([6, 7]);
    expect(seqs(await messages(alice, 'mixed', 'afterSeq=1&beforeSeq=6&limit=2'))).toEqual([2, 4]);
    expect(seqs(await messages(alice, 'mixed', 'tail=2&afterSeq=6'))).toEqual([7, 8]);
  });

  it('gives check_messages the same filters and paging', async () => {
    const r = await useTool(bobMcp, 'check_messages', { channel: 'mixed', type: ['QUERY', 'COMMAND'], target: 'bob' });
    expect(seqs(r.messages)).toEqual([1, 5]);
    expect(seqs((await useTool(bobMcp, 'check_messages', { channel: 'mixed', tail: 2 })).messages)).toEqual([7, 8]);
    expect(seqs((await useTool(bobMcp, 'check_messages', { channel: 'mixed', correlation_id: 'c1', sender: 'bob' })).messages)).toEqual([4]);
  });

  it('refuses an unknown type naming it and the known ones, and other bad filters by name', async () => {
    const bad = await alice.get('/api/v1/channels/mixed/messages?type=QUERY,BOGUS');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'type', problems: [expect.stringContaining("unknown message type 'BOGUS'; known types: QUERY, COMMAND")] }]);
    const mcpBad = await callTool(bobMcp, 'check_messages', { channel: 'mixed', type: 'nope' });
    expect(mcpBad.body.details[0]).toMatchObject({ field: 'type' });
    for (const [query, field] of [['type=', 'type'], ['tail=0', 'tail'], ['beforeSeq=-3', 'beforeSeq'], ['sender=', 'sender'], ['topic=' + 'x'.repeat(200), 'topic']]) {
      const res = await alice.get(`/api/v1/channels/mixed/messages?${query}`);
      expect([query, res.status, res.body.details?.map((d: any) => d.field)]).toEqual([query, 400, [field]]);
    }
  });

  it('keeps a monotonic read cursor per agent, shown with unread on channel reads and lists, and check_messages unread_only', async () => {
    await alice.post('/api/v1/channels', { name: 'inbox-ish', summaryThreshold: 1000 });
    for (let i = 0; i < 5; i++) await alice.post('/api/v1/channels/inbox-ish/messages', { content: `m${i}` });
    expect((await bob.get('/api/v1/channels/inbox-ish')).body).toMatchObject({ lastSeq: 5, readThroughSeq: 0, unread: 5 });

    expect((await bob.post('/api/v1/channels/inbox-ish/read', { throughSeq: 3 })).body).toEqual({ channel: 'inbox-ish', readThroughSeq: 3, lastSeq: 5, unread: 2 });
    // Lower: a no-op returning the current cursor.
    expect((await bob.post('/api/v1/channels/inbox-ish/read', { throughSeq: 1 })).body).toMatchObject({ readThroughSeq: 3, unread: 2 });
    expect(await useTool(bobMcp, 'mark_read', { channel: 'inbox-ish', through_seq: 2 })).toMatchObject({ readThroughSeq: 3 });

    const listed = (await bob.get('/api/v1/channels')).body.find((c: any) => c.name === 'inbox-ish');
    expect(listed).toMatchObject({ readThroughSeq: 3, unread: 2 });
    const mcpListed = (await useTool(bobMcp, 'list_channels')).channels.find((c: any) => c.name === 'inbox-ish');
    expect(mcpListed).toMatchObject({ readThroughSeq: 3, unread: 2 });
    // Cursors are per agent.
    expect((await carol.get('/api/v1/channels/inbox-ish')).body).toMatchObject({ readThroughSeq: 0, unread: 5 });

    expect(seqs((await useTool(bobMcp, 'check_messages', { channel: 'inbox-ish', unread_only: true })).messages)).toEqual([4, 5]);
    expect(seqs(await messages(bob, 'inbox-ish', 'unreadOnly=true&afterSeq=4'))).toEqual([5]);
  });

  it('check_messages: nextAfterSeq continues past what the page hid, so paging never goes back and mark_read can reach lastSeq', async () => {
    await alice.post('/api/v1/channels', { name: 'telemetry-tail', summaryThreshold: 1000 });
    await alice.post('/api/v1/channels/telemetry-tail/messages', { content: 'hello' }); // 1
    await alice.post('/api/v1/channels/telemetry-tail/messages', { type: 'EVENT', content: 'cpu 3%' }); // 2
    const unread = await useTool(bobMcp, 'check_messages', { channel: 'telemetry-tail', unread_only: true });
    expect([seqs(unread.messages), unread.afterSeq, unread.nextAfterSeq]).toEqual([[1], 0, 2]);
    expect(await useTool(bobMcp, 'mark_read', { channel: 'telemetry-tail', through_seq: unread.nextAfterSeq })).toMatchObject({ readThroughSeq: 2, unread: 0 });
    // Nothing unread: the page starts at the cursor and continues there, not from 0.
    const none = await useTool(bobMcp, 'check_messages', { channel: 'telemetry-tail', unread_only: true });
    expect([seqs(none.messages), none.afterSeq, none.nextAfterSeq]).toEqual([[], 2, 2]);
    // A filter that matches nothing has still read the channel through its last seq.
    expect((await useTool(bobMcp, 'check_messages', { channel: 'mixed', type: 'DECLINE' })).nextAfterSeq).toBe(8);
    // A full page continues after its last message (more may follow).
    expect((await useTool(bobMcp, 'check_messages', { channel: 'mixed', limit: 2 })).nextAfterSeq).toBe(2);
    expect((await useTool(bobMcp, 'check_messages', { channel: 'mixed', after_seq: 2, before_seq: 6, limit: 10 })).nextAfterSeq).toBe(5);
  });

  it('an afterSeq past the channel\'s last seq is a 400 naming it (a read or a wait from there would skip what comes next)', async () => {
    const ahead = await bob.get('/api/v1/channels/mixed/messages?afterSeq=9');
    expect([ahead.status, ahead.body.details?.[0]?.field]).toEqual([400, 'afterSeq']);
    expect(ahead.body.message).toBe("Invalid request: afterSeq must not be past the channel's last seq (8): after 9, the messages up to it would be skipped");
    const waiting = await callTool(bobMcp, 'wait_for_messages', { channel: 'mixed', after_seq: 99999, timeout_s: 0 });
    expect(waiting).toMatchObject({ isError: true, body: { statusCode: 400, details: [{ field: 'after_seq' }] } });
    expect((await bob.get('/api/v1/channels/mixed/messages?afterSeq=8')).body).toEqual([]);
  });

  it('refuses a cursor past lastSeq (400 naming throughSeq and lastSeq) and writes nothing; hides private channels with a 404', async () => {
    await alice.post('/api/v1/channels', { name: 'short' });
    await alice.post('/api/v1/channels/short/messages', { content: 'one' });
    await bob.post('/api/v1/channels/short/read', { throughSeq: 1 });
    const past = await bob.post('/api/v1/channels/short/read', { throughSeq: 2 });
    expect(past.status).toBe(400);
    expect(past.body.details).toEqual([{ field: 'throughSeq', problems: ["must be at most the channel's lastSeq (1)"] }]);
    for (const throughSeq of [-1, 1.5, '1', null]) expect((await bob.post('/api/v1/channels/short/read', { throughSeq })).body.details[0].field).toBe('throughSeq');
    expect((await bob.get('/api/v1/channels/short')).body).toMatchObject({ readThroughSeq: 1, unread: 0 });
    const mcpPast = await callTool(bobMcp, 'mark_read', { channel: 'short', through_seq: 99 });
    expect(mcpPast.body).toMatchObject({ statusCode: 400, details: [{ field: 'through_seq' }] }); // the tool's argument

    await alice.post('/api/v1/channels', { name: 'secret-read', members: ['bob'] });
    expect((await carol.post('/api/v1/channels/secret-read/read', { throughSeq: 0 })).status).toBe(404);
    expect((await carol.get('/api/v1/channels')).body.map((c: any) => c.name)).not.toContain('secret-read');
  });

  it('keeps cursors and unread right under concurrent posts and marks', async () => {
    await alice.post('/api/v1/channels', { name: 'busy', summaryThreshold: 1000 });
    const POSTS = 60;
    const marks: number[] = [];
    await Promise.all([
      ...Array.from({ length: POSTS }, (_, i) => (i % 2 ? alice : carol).post('/api/v1/channels/busy/messages', { content: `p${i}` })),
      ...Array.from({ length: 20 }, async () => {
        const { lastSeq } = (await bob.get('/api/v1/channels/busy')).body;
        const through = Math.floor(Math.random() * (lastSeq + 1));
        const res = await bob.post('/api/v1/channels/busy/read', { throughSeq: through });
        expect(res.status).toBe(200);
        expect(res.body.readThroughSeq).toBeGreaterThanOrEqual(through);
        expect(res.body.unread).toBe(res.body.lastSeq - res.body.readThroughSeq);
        marks.push(through);
      }),
    ]);
    const after = (await bob.get('/api/v1/channels/busy')).body;
    expect(after).toEqual(expect.objectContaining({ lastSeq: POSTS, readThroughSeq: Math.max(...marks), unread: POSTS - Math.max(...marks) }));
  });

  it('serves every filter from its index, in the generic plan of the prepared statement too', async () => {
    const pg = new PgClient({ connectionString: t.databaseUrl });
    await pg.connect();
    try {
      // A channel big enough that a scan of the channel's range would cost more than the index.
      const { rows } = await pg.query(`SELECT id FROM channels WHERE name = 'mixed'`);
      const channelId = rows[0].id;
      await pg.query(
        `INSERT INTO messages (channel_id, seq, type, sender, content, topic, correlation_id, target)
         SELECT $1, 1000 + g, (ARRAY['STATUS','EVENT','RESPONSE'])[1 + g % 3], 'agent-' || (g % 50), 'x', 'topic-' || (g % 40), 'corr-' || g, 'agent-' || (g % 30)
         FROM generate_series(1, 30000) g`,
        [channelId],
      );
      await pg.query('ANALYZE messages');
      await pg.query('SET plan_cache_mode = force_generic_plan');
      const cases: [string, Partial<MessageFilter>, unknown, string][] = [
        ['type', { types: [MessageType.QUERY] }, ['QUERY'], 'messages_channel_type_idx'],
        ['topic', { topic: 'deploy' }, 'deploy', 'messages_channel_topic_idx'],
        ['sender', { sender: 'carol' }, 'carol', 'messages_channel_sender_idx'],
        ['correlationId', { correlationId: 'c2' }, 'c2', 'messages_channel_correlation_idx'],
        ['target', { target: 'bob' }, 'bob', 'messages_channel_target_idx'],
      ];
      for (const [name, filter, value, index] of cases) {
        const f: MessageFilter = { ...NO_FILTER, ...filter };
        const present = [f.topic, f.sender, f.correlationId, f.target].map((v) => v !== null);
        const sql = pageSql(f.types !== null, present, false);
        const typeParam = f.types ? f.types : false;
        const params = f.types ? [channelId, 0, null, 100, typeParam] : [channelId, 0, null, 100, typeParam, value];
        await pg.query(`PREPARE filter_${name} AS ${sql}`);
        // EXPLAIN takes no bind parameters: the values go in as literals.
        const literal = (v: unknown): string =>
          v === null ? 'NULL' : Array.isArray(v) ? `ARRAY[${v.map(literal).join(', ')}]::text[]` : typeof v === 'string' ? pg.escapeLiteral(v) : String(v);
        const plan = await pg.query(`EXPLAIN EXECUTE filter_${name}(${params.map(literal).join(', ')})`);
        const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
        expect([name, text]).toEqual([name, expect.stringContaining(`Index Scan using ${index}`)]);
        expect([name, text]).toEqual([name, expect.stringMatching(/Index Cond: \(\(channel_id = \$1\) AND \(\w+ = /)]);
      }
    } finally {
      await pg.end();
    }
  });
});
