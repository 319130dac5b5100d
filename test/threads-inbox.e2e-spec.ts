import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MessageType, ThreadState, threadStep } from '@qhorus/api';
import { Client as PgClient } from 'pg';
import { waitForSummary } from './support/channel-helpers';
import { ApiClient, waitFor } from './support/http';
import { callTool, connectMcp, useTool } from './support/mcp-client';
import { startTestApp, TestApp } from './support/test-app';

/** The JSON of one inbox entry and of one thread row (the fields these tests read). */
interface InboxItem {
  channel: string;
  seq: number;
  correlationId: string;
  reason: string;
}
interface ThreadRow {
  correlationId: string;
  status: string;
  type: string;
  owner: string | null;
  opener: string;
  openedSeq: number;
  closedSeq: number | null;
}

/** The text of a resource's contents (resources here are JSON text, never blobs). */
const textOf = (contents: { text: string } | { blob: string }): string => ('text' in contents ? contents.text : '');

/** Far above any backlog here: the channel summary slot stays out of the way. */
const MANUAL_ONLY = 10_000;

/** Issue 16 items 4, 5, 7: the durable thread index, the inbox, and MCP resources, over REST and the official MCP client. */
describe('threads, inbox and MCP resources', () => {
  let t: TestApp;
  let alice: ApiClient, bob: ApiClient, carol: ApiClient, mallory: ApiClient;
  let mcpAlice: Client, mcpBob: Client, mcpCarol: Client, mcpMallory: Client;
  let pg: PgClient;

  const post = (who: ApiClient, channel: string, body: Record<string, unknown>) => who.post(`/api/v1/channels/${channel}/messages`, body);
  const inbox = async (who: ApiClient) => {
    const res = await who.get('/api/v1/inbox');
    expect(res.status).toBe(200);
    return res.body as InboxItem[];
  };
  /** The channel's thread index equals the thread rules folded over its messages in seq order. */
  const expectIndexIsTheFold = async (channel: string) => {
    const { rows } = await pg.query(
      `SELECT m.seq::int, m.type, m.sender, m.correlation_id, m.target FROM messages m JOIN channels c ON c.id = m.channel_id
       WHERE c.name = $1 AND m.correlation_id IS NOT NULL ORDER BY m.seq`,
      [channel],
    );
    const expected = new Map<string, { state: ThreadState | null; opener: string | null; openedSeq: number | null; closedSeq: number | null }>();
    for (const m of rows) {
      const before = expected.get(m.correlation_id) ?? { state: null, opener: null, openedSeq: null, closedSeq: null };
      const { next: state, opened, closed } = threadStep(before.state, { type: m.type, target: m.target });
      expected.set(m.correlation_id, {
        state,
        opener: opened ? m.sender : before.opener,
        openedSeq: opened ? m.seq : before.openedSeq,
        closedSeq: closed ? m.seq : opened ? null : before.closedSeq,
      });
    }
    const listed = (await alice.get(`/api/v1/channels/${channel}/threads?limit=1000`)).body;
    const want = [...expected.entries()]
      .filter(([, e]) => e.state !== null)
      .map(([id, e]) => ({ correlationId: id, status: e.state!.status, type: e.state!.type, owner: e.state!.owner, opener: e.opener, openedSeq: e.openedSeq, closedSeq: e.closedSeq }))
      .sort((a, b) => a.openedSeq! - b.openedSeq!);
    expect(listed.map(({ correlationId, status, type, owner, opener, openedSeq, closedSeq }: ThreadRow) => ({ correlationId, status, type, owner, opener, openedSeq, closedSeq }))).toEqual(want);
  };
  const thread = async (who: ApiClient, channel: string, correlationId: string) => {
    const res = await who.get(`/api/v1/channels/${channel}/threads/${encodeURIComponent(correlationId)}`);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp('threads-inbox');
    [alice, bob, carol, mallory] = await Promise.all(['alice', 'bob', 'carol', 'mallory'].map((n) => t.agent(n)));
    [mcpAlice, mcpBob, mcpCarol, mcpMallory] = await Promise.all([alice, bob, carol, mallory].map((c) => connectMcp(t.baseUrl, c.token)));
    await alice.post('/api/v1/channels', { name: 'ops', summaryThreshold: MANUAL_ONLY, description: 'operations' });
    await alice.post('/api/v1/channels', { name: 'secret', members: ['bob'], summaryThreshold: MANUAL_ONLY });
    pg = new PgClient({ connectionString: t.databaseUrl });
    await pg.connect();
  });
  afterAll(async () => {
    await Promise.all([mcpAlice, mcpBob, mcpCarol, mcpMallory].map((c) => c?.close()));
    await pg?.end();
    await t?.close();
  });

  it('A asks B over MCP: B\'s inbox (REST and check_inbox) lists it until B answers; the thread shows answered', async () => {
    const query = await useTool(mcpAlice, 'send_message', { channel: 'ops', type: 'QUERY', content: 'is the disk on db-1 full?', target: 'bob', correlation_id: 'disk-1' });
    const rest = await inbox(bob);
    expect(rest).toEqual([
      {
        channel: 'ops',
        seq: query.seq,
        correlationId: 'disk-1',
        type: 'QUERY',
        opener: 'alice',
        owner: 'bob',
        reason: 'owed',
        content: 'is the disk on db-1 full?',
        openedAt: expect.any(String),
        ageSeconds: expect.any(Number),
      },
    ]);
    expect((await useTool(mcpBob, 'check_inbox')).items).toEqual(rest.map((item) => ({ ...item, ageSeconds: expect.any(Number) })));
    expect(await inbox(alice)).toEqual([]); // the asker owes nothing
    expect(await inbox(carol)).toEqual([]); // targeted at bob: not carol's

    await useTool(mcpBob, 'send_message', { channel: 'ops', type: 'RESPONSE', content: 'yes, 97%', correlation_id: 'disk-1', in_reply_to: query.seq });
    expect(await inbox(bob)).toEqual([]);
    expect((await useTool(mcpBob, 'check_inbox')).items).toEqual([]);

    const detail = await thread(alice, 'ops', 'disk-1');
    expect(detail).toMatchObject({ channel: 'ops', correlationId: 'disk-1', type: 'QUERY', status: 'answered', opener: 'alice', owner: 'bob', openedSeq: query.seq, closedSeq: query.seq + 1 });
    expect(detail.messages.map((m: { type: string }) => m.type)).toEqual(['QUERY', 'RESPONSE']);
    const viaMcp = await useTool(mcpAlice, 'get_thread', { channel: 'ops', correlation_id: 'disk-1' });
    expect(viaMcp).toMatchObject({ status: 'answered', messages: [{ seq: query.seq }, { seq: query.seq + 1 }] });
  });

  it('a HANDOFF moves the obligation to its target\'s inbox', async () => {
    const command = await post(alice, 'ops', { type: 'COMMAND', content: 'rotate the TLS certs', target: 'bob', correlationId: 'certs-1' });
    expect((await inbox(bob)).map((i) => i.correlationId)).toEqual(['certs-1']);
    await post(bob, 'ops', { type: 'HANDOFF', content: 'carol has the CA keys', target: 'carol', correlationId: 'certs-1' });
    expect(await inbox(bob)).toEqual([]);
    const carols = await inbox(carol);
    expect(carols).toEqual([expect.objectContaining({ correlationId: 'certs-1', type: 'COMMAND', opener: 'alice', owner: 'carol', reason: 'owed', seq: command.body.seq })]);
    expect((await thread(alice, 'ops', 'certs-1'))).toMatchObject({ status: 'open', owner: 'carol', closedSeq: null });
  });

  it('a thread\'s page hides EVENT telemetry posted in it, as every read does, unless includeEvents (REST) or include_events (MCP)', async () => {
    await post(alice, 'ops', { type: 'QUERY', content: 'disk usage?', target: 'bob', correlationId: 'telemetry-7' });
    await post(bob, 'ops', { type: 'EVENT', content: '{"disk":91}', correlationId: 'telemetry-7' });
    await post(bob, 'ops', { type: 'RESPONSE', content: '91 percent', correlationId: 'telemetry-7' });
    const types = (page: { messages: { type: string }[] }) => page.messages.map((m) => m.type);
    expect(types(await thread(alice, 'ops', 'telemetry-7'))).toEqual(['QUERY', 'RESPONSE']);
    expect(types((await alice.get('/api/v1/channels/ops/threads/telemetry-7?includeEvents=true')).body)).toEqual(['QUERY', 'EVENT', 'RESPONSE']);
    expect(types(await useTool(mcpAlice, 'get_thread', { channel: 'ops', correlation_id: 'telemetry-7' }))).toEqual(['QUERY', 'RESPONSE']);
    expect(types(await useTool(mcpAlice, 'get_thread', { channel: 'ops', correlation_id: 'telemetry-7', include_events: true }))).toEqual(['QUERY', 'EVENT', 'RESPONSE']);
    const bad = await alice.get('/api/v1/channels/ops/threads/telemetry-7?includeEvents=maybe');
    expect([bad.status, bad.body.details?.[0]?.field]).toEqual([400, 'includeEvents']);
  });

  it('a COMMAND reopened after DONE shows open again (and in its owner\'s inbox)', async () => {
    await post(carol, 'ops', { type: 'DONE', content: 'certs rotated', correlationId: 'certs-1' });
    expect(await thread(alice, 'ops', 'certs-1')).toMatchObject({ status: 'done' });
    expect(await inbox(carol)).toEqual([]);
    const follow = await post(bob, 'ops', { type: 'STATUS', content: 'nice', correlationId: 'certs-1' });
    expect(await thread(alice, 'ops', 'certs-1')).toMatchObject({ status: 'done', updatedSeq: follow.body.seq }); // a follow-up leaves it closed

    const reopen = await post(alice, 'ops', { type: 'COMMAND', content: 'the staging certs too', target: 'carol', correlationId: 'certs-1' });
    expect(await thread(alice, 'ops', 'certs-1')).toMatchObject({ status: 'open', type: 'COMMAND', opener: 'alice', owner: 'carol', openedSeq: reopen.body.seq, closedSeq: null });
    const open = await alice.get('/api/v1/channels/ops/threads?status=open');
    expect(open.body.map((th: ThreadRow) => th.correlationId)).toEqual(['certs-1']);
    expect((await useTool(mcpAlice, 'list_threads', { channel: 'ops', status: 'open' })).threads).toEqual(open.body);
    expect((await inbox(carol)).map((i) => [i.correlationId, i.seq])).toEqual([['certs-1', reopen.body.seq]]);
    await post(carol, 'ops', { type: 'DONE', content: 'staging too', correlationId: 'certs-1' });
  });

  it('an untargeted open request is in everyone\'s inbox but its opener\'s, oldest first; a private channel shows nothing to a non-member', async () => {
    const first = await post(alice, 'ops', { type: 'QUERY', content: 'anyone seen the 502s?', correlationId: 'any-1' });
    await post(alice, 'secret', { type: 'QUERY', content: 'who has the vault password?', correlationId: 'vault' });
    await post(alice, 'secret', { type: 'COMMAND', content: 'carol, rotate it', target: 'carol', correlationId: 'vault-rotate' }); // carol is no member
    const second = await post(carol, 'ops', { type: 'COMMAND', content: 'restart the proxy', correlationId: 'any-2' });

    expect((await inbox(bob)).map((i) => [i.channel, i.correlationId, i.reason])).toEqual([
      ['ops', 'any-1', 'untargeted'],
      ['secret', 'vault', 'untargeted'],
      ['ops', 'any-2', 'untargeted'],
    ]);
    expect((await inbox(alice)).map((i) => i.correlationId)).toEqual(['any-2']);
    expect((await inbox(mallory)).map((i) => i.correlationId)).toEqual(['any-1', 'any-2']);
    expect((await inbox(carol)).map((i) => i.correlationId)).toEqual(['any-1']); // not the private one targeted at her
    expect((await useTool(mcpMallory, 'check_inbox')).items.map((i: InboxItem) => i.channel)).toEqual(['ops', 'ops']);
    expect((await inbox(mallory))[0].seq).toBe(first.body.seq);
    expect((await inbox(alice))[0].seq).toBe(second.body.seq);
    expect((await t.admin.get('/api/v1/inbox?limit=2')).body).toHaveLength(2);
    // A page cut at `limit` says how many are waiting in all: the header over REST, `total` over MCP.
    const cut = await bob.get('/api/v1/inbox?limit=2');
    expect([cut.body.length, cut.headers.get('x-total-count')]).toEqual([2, '3']);
    expect((await bob.get('/api/v1/inbox')).headers.get('x-total-count')).toBe('3');
    const mcpCut = await useTool(mcpBob, 'check_inbox', { limit: 1 });
    expect([mcpCut.items.length, mcpCut.total]).toEqual([1, 3]);

    for (const [who, id] of [[alice, 'any-1'], [carol, 'any-2'], [bob, 'vault'], [bob, 'vault-rotate']] as const) {
      await post(who, id.startsWith('vault') ? 'secret' : 'ops', { type: 'DONE', content: 'done', correlationId: id });
    }
  });

  it('bad input: an unknown status is a 400 naming it; an unknown thread a 404; a private channel\'s threads a 404 to outsiders', async () => {
    const bad = await alice.get('/api/v1/channels/ops/threads?status=pending');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'status', problems: [expect.stringMatching(/status must be one of the following values: open, answered, done, declined, failed/)] }]);
    expect((await alice.get('/api/v1/channels/ops/threads?limit=0')).body.details[0].field).toBe('limit');
    expect((await alice.get('/api/v1/inbox?limit=x')).status).toBe(400);
    const missing = await alice.get('/api/v1/channels/ops/threads/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("Thread 'nope' not found in channel 'ops'");
    for (const path of ['/api/v1/channels/secret/threads', '/api/v1/channels/secret/threads/vault', '/api/v1/channels/secret/threads/vault/summary']) {
      const outsider = await mallory.get(path);
      expect(outsider.status).toBe(404);
      expect(outsider.body.message).toBe("Channel 'secret' not found");
    }
    expect((await bob.get('/api/v1/channels/secret/threads/vault')).status).toBe(200);
    // A correlation id with only follow-ups is no thread.
    await post(alice, 'ops', { type: 'STATUS', content: 'fyi', correlationId: 'just-status' });
    expect((await alice.get('/api/v1/channels/ops/threads/just-status')).status).toBe(404);

    const mcpBad = await callTool(mcpAlice, 'list_threads', { channel: 'ops', status: 'pending' });
    expect(mcpBad.isError).toBe(true);
    expect(mcpBad.body).toMatchObject({ statusCode: 400, details: [{ field: 'status' }] });
    expect((await callTool(mcpMallory, 'get_thread', { channel: 'secret', correlation_id: 'vault' })).body).toMatchObject({ statusCode: 404 });
    expect((await callTool(mcpAlice, 'get_thread', { channel: 'ops' })).body).toMatchObject({ statusCode: 400, details: [{ field: 'correlation_id' }] });
  });

  it('the index is the thread rules folded over the channel in seq order, also under concurrent posts', async () => {
    await alice.post('/api/v1/channels', { name: 'fold', summaryThreshold: MANUAL_ONLY });
    const agents = [alice, bob, carol];
    const types = [MessageType.QUERY, MessageType.COMMAND, MessageType.RESPONSE, MessageType.STATUS, MessageType.HANDOFF, MessageType.DONE, MessageType.DECLINE, MessageType.FAILURE];
    let rnd = 7;
    const next = (n: number) => (rnd = (rnd * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 6; round++) {
      await Promise.all(
        Array.from({ length: 20 }, () => {
          const type = types[next(types.length)];
          const target = type === MessageType.HANDOFF || next(2) === 0 ? ['alice', 'bob', 'carol'][next(3)] : undefined;
          return post(agents[next(3)], 'fold', { type, content: `${type} content`, correlationId: `c${next(5)}`, ...(target ? { target } : {}) });
        }),
      );
    }
    await expectIndexIsTheFold('fold');
  });

  it('a batch writes the index as the fold too, when its threads interleave (opened and closed seqs are the messages\' own)', async () => {
    await alice.post('/api/v1/channels', { name: 'fold-batch', summaryThreshold: MANUAL_ONLY });
    const types = [MessageType.QUERY, MessageType.COMMAND, MessageType.RESPONSE, MessageType.STATUS, MessageType.HANDOFF, MessageType.DONE, MessageType.DECLINE, MessageType.FAILURE];
    let rnd = 11;
    const next = (n: number) => (rnd = (rnd * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 5; round++) {
      const messages = Array.from({ length: 30 }, () => {
        const type = types[next(types.length)];
        const target = type === MessageType.HANDOFF || next(2) === 0 ? ['alice', 'bob', 'carol'][next(3)] : undefined;
        // Some messages in no thread, so a thread's messages are rarely consecutive in the batch.
        const correlationId = next(4) === 0 && type !== MessageType.QUERY && type !== MessageType.COMMAND ? undefined : `c${next(6)}`;
        return { type, content: `${type} content`, ...(correlationId ? { correlationId } : {}), ...(target ? { target } : {}) };
      });
      expect((await alice.post('/api/v1/channels/fold-batch/messages/batch', { messages })).status).toBe(201);
    }
    await expectIndexIsTheFold('fold-batch');
  });

  it('a reply by inReplyTo alone joins the thread of the message it answers: index, inbox and summary state agree', async () => {
    await alice.post('/api/v1/channels', { name: 'replies', summaryThreshold: MANUAL_ONLY });
    const query = (await post(alice, 'replies', { type: 'QUERY', content: 'green?', target: 'bob' })).body;
    const command = (await post(alice, 'replies', { type: 'COMMAND', content: 'deploy', target: 'bob' })).body;
    const other = (await post(alice, 'replies', { type: 'COMMAND', content: 'tag it', target: 'bob' })).body;
    const answer = await post(bob, 'replies', { type: 'RESPONSE', content: 'yes', inReplyTo: query.seq });
    expect(answer.body).toMatchObject({ correlationId: query.correlationId, inReplyTo: query.seq });
    expect((await post(bob, 'replies', { type: 'DONE', content: 'deployed', inReplyTo: command.seq })).body.correlationId).toBe(command.correlationId);
    expect((await post(bob, 'replies', { type: 'HANDOFF', content: 'carol tags', target: 'carol', inReplyTo: other.seq })).body.correlationId).toBe(other.correlationId);
    // A correlation id given wins; a QUERY answering a message still opens a thread of its own.
    expect((await post(bob, 'replies', { type: 'STATUS', content: 'fyi', correlationId: 'mine', inReplyTo: query.seq })).body.correlationId).toBe('mine');
    const followUp = (await post(carol, 'replies', { type: 'QUERY', content: 'which tag?', inReplyTo: other.seq })).body;
    expect(followUp.correlationId).not.toBe(other.correlationId);
    // In a batch, a reply to a message already in the channel joins its thread, and so does one to
    // an earlier message of the same batch.
    const batch = await alice.post('/api/v1/channels/replies/messages/batch', {
      messages: [
        { type: 'STATUS', content: 'thanks', inReplyTo: answer.body.seq },
        { type: 'QUERY', content: 'and prod?', target: 'bob' },
        { type: 'RESPONSE', content: 'in-batch reply', inReplyTo: followUp.seq + 2 },
      ],
    });
    expect(batch.status).toBe(201);
    const askedInBatch = batch.body.messages[1].correlationId;
    expect(batch.body.messages.map((m: { correlationId: string | null }) => m.correlationId)).toEqual([query.correlationId, expect.any(String), askedInBatch]);

    const threads = (await alice.get('/api/v1/channels/replies/threads?limit=100')).body as ThreadRow[];
    expect(threads.map((r) => [r.correlationId, r.status, r.owner])).toEqual([
      [query.correlationId, 'answered', 'bob'],
      [command.correlationId, 'done', 'bob'],
      [other.correlationId, 'open', 'carol'],
      [followUp.correlationId, 'open', null],
      [askedInBatch, 'answered', 'bob'],
    ]);
    const owed = (who: InboxItem[]) => who.filter((i) => i.channel === 'replies').map((i) => i.correlationId);
    expect(owed(await inbox(bob))).toEqual([followUp.correlationId]);
    expect(owed(await inbox(carol))).toEqual([other.correlationId]);

    expect((await alice.post('/api/v1/channels/replies/summary/refresh')).status).toBeLessThan(300);
    const summary = await waitForSummary(alice, 'replies', (x) => x.pending === 0 && x.version > 0, 'the summary of every message');
    const open = JSON.parse(summary.annotations.openThreads) as { correlationId: string }[];
    expect(open.map((o) => o.correlationId).sort()).toEqual(threads.filter((r) => r.status === 'open').map((r) => r.correlationId).sort());
  });

  it('a thread whose correlation id has the longest allowed length is readable by its route, also when it is not ASCII', async () => {
    await alice.post('/api/v1/channels', { name: 'long-ids', summaryThreshold: MANUAL_ONLY });
    for (const id of ['k'.repeat(128), '部'.repeat(128)]) {
      expect((await post(alice, 'long-ids', { type: 'QUERY', content: 'x', correlationId: id })).status).toBe(201);
      const res = await alice.get(`/api/v1/channels/long-ids/threads/${encodeURIComponent(id)}`);
      expect(res.status).toBe(200);
      expect(res.body.correlationId).toBe(id);
    }
  });

  it('a batch writes the index like single posts: several messages of one thread fold in order, and a close in a batch gets its summary', async () => {
    await alice.post('/api/v1/channels', { name: 'batchy', summaryThreshold: MANUAL_ONLY });
    await post(bob, 'batchy', { type: 'COMMAND', content: 'before the batch', target: 'alice', correlationId: 'pre' });
    const batch = await alice.post('/api/v1/channels/batchy/messages/batch', {
      messages: [
        { type: 'QUERY', content: 'q', target: 'bob', correlationId: 'b1' },
        { type: 'HANDOFF', content: 'carol knows', target: 'carol', correlationId: 'b1' },
        { type: 'RESPONSE', content: 'answer', correlationId: 'b1' },
        { type: 'STATUS', content: 'working on it', correlationId: 'pre' },
        { type: 'COMMAND', content: 'next', target: 'bob', correlationId: 'b2' },
        { type: 'DONE', content: 'done', correlationId: 'pre' },
        { type: 'COMMAND', content: 'again', target: 'carol', correlationId: 'pre' },
      ],
    });
    expect(batch.status).toBe(201);
    const threads = (await alice.get('/api/v1/channels/batchy/threads')).body as ThreadRow[];
    expect(threads.map(({ correlationId, status, type, owner, opener, openedSeq, closedSeq }) => ({ correlationId, status, type, owner, opener, openedSeq, closedSeq }))).toEqual([
      { correlationId: 'b1', status: 'answered', type: 'QUERY', owner: 'carol', opener: 'alice', openedSeq: 2, closedSeq: 4 },
      { correlationId: 'b2', status: 'open', type: 'COMMAND', owner: 'bob', opener: 'alice', openedSeq: 6, closedSeq: null },
      { correlationId: 'pre', status: 'open', type: 'COMMAND', owner: 'carol', opener: 'alice', openedSeq: 8, closedSeq: null },
    ]);
    expect((await inbox(bob)).filter((i) => i.channel === 'batchy').map((i) => i.correlationId)).toEqual(['b2']);
    const summary = await waitFor(async () => {
      const res = await alice.get('/api/v1/channels/batchy/threads/b1/summary');
      return res.status === 200 ? res.body : null;
    }, 'the summary of the thread answered inside the batch');
    expect(summary).toMatchObject({ closedBy: 'RESPONSE', messageCount: 3 });
  });

  it('MCP resources: each readable channel\'s summary and context, listed and read as the caller', async () => {
    const { resources } = await mcpBob.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      expect.arrayContaining(['qhorus://channels/ops/summary', 'qhorus://channels/ops/context', 'qhorus://channels/secret/summary', 'qhorus://channels/secret/context']),
    );
    const malloryUris = (await mcpMallory.listResources()).resources.map((r) => r.uri);
    expect(malloryUris).toContain('qhorus://channels/ops/summary');
    expect(malloryUris.some((uri) => uri.includes('/secret/'))).toBe(false);
    const { resourceTemplates } = await mcpBob.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate).sort()).toEqual(['qhorus://channels/{name}/context', 'qhorus://channels/{name}/summary']);

    const summary = await mcpBob.readResource({ uri: 'qhorus://channels/ops/summary' });
    expect(summary.contents[0]).toMatchObject({ uri: 'qhorus://channels/ops/summary', mimeType: 'application/json' });
    expect(JSON.parse(textOf(summary.contents[0]))).toEqual((await bob.get('/api/v1/channels/ops/summary')).body);
    const context = await mcpBob.readResource({ uri: 'qhorus://channels/ops/context' });
    expect(JSON.parse(textOf(context.contents[0]))).toEqual((await bob.get('/api/v1/channels/ops/context')).body);

    // MCP's "resource not found" (-32002), not an internal error.
    await expect(mcpMallory.readResource({ uri: 'qhorus://channels/secret/summary' })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/Channel 'secret' not found/) });
    await expect(mcpBob.readResource({ uri: 'qhorus://channels/no-such/context' })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/Channel 'no-such' not found/) });
  });
});
