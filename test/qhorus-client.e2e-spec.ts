import Anthropic from '@anthropic-ai/sdk';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { ChannelEvent, QhorusClient, QhorusError } from '@qhorus/client';
import { LongPollWaits } from '../apps/channel-service/src/message-store/long-poll-waits';
import { freePort } from './support/free-port';
import { waitFor } from './support/http';
import { recordingFetch } from './support/recording-fetch';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';
import { WebhookReceiver } from './support/webhook-receiver';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** One line of a channel's export (the package's index does not name the type). */
type ExportLine = ReturnType<QhorusClient['exportChannel']> extends AsyncGenerator<infer L> ? L : never;

async function failure(promise: Promise<unknown>): Promise<QhorusError> {
  const outcome = await promise.then(
    () => new Error('expected a QhorusError, got a success'),
    (err: unknown) => err,
  );
  if (!(outcome instanceof QhorusError)) throw outcome;
  return outcome;
}

/** Takes events from a stream until `count` of them were messages (a summary event does not count). */
async function take(stream: AsyncGenerator<ChannelEvent>, count: number): Promise<ChannelEvent[]> {
  const out: ChannelEvent[] = [];
  for await (const e of stream) {
    out.push(e);
    if (out.filter((x) => x.event === 'message.posted').length === count) break;
  }
  return out;
}

/** Every line of a channel's export, read to its end. */
async function exported(stream: AsyncGenerator<ExportLine>): Promise<ExportLine[]> {
  const out: ExportLine[] = [];
  for await (const line of stream) out.push(line);
  return out;
}

/** The same answer, its body ended right after the first `message.posted` frame, as a proxy or a network would cut it. */
function cutAfterFirstMessage(res: Response): Response {
  if (!res.body) return res;
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const { value, done } = await reader.read();
      if (done) return c.close();
      c.enqueue(value);
      if (new TextDecoder().decode(value).includes('event: message.posted')) {
        await reader.cancel();
        c.close();
      }
    },
  });
  return new Response(body, { status: res.status, headers: res.headers });
}

/** A server that is not Qhorus, answering every request with `answer` (or never); counts the requests. */
async function foreignServer(answer: ((req: IncomingMessage, res: ServerResponse) => void) | null): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    if (answer) answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describe('@qhorus/client against the real service', () => {
  let t: TestApp;
  const recorder = recordingFetch();
  let admin: QhorusClient;
  let alice: QhorusClient;
  let bob: QhorusClient;

  beforeAll(async () => {
    // Loopback allowed as a webhook target: the test's receiver lives there.
    t = await startTestApp('qhorus-client', { inProcessQueue: true, env: { QHORUS_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', QHORUS_WEBHOOK_POLL_MS: '100' } });
    admin = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN, fetch: recorder.fetch });
    const a = await admin.registerAgent('alice');
    const b = await admin.registerAgent('bob');
    expect(a).toMatchObject({ name: 'alice', token: expect.stringMatching(/^qh_/) });
    alice = new QhorusClient({ baseUrl: t.baseUrl, token: a.token, fetch: recorder.fetch });
    bob = new QhorusClient({ baseUrl: t.baseUrl, token: b.token, fetch: recorder.fetch });
  });
  afterAll(() => t?.close());

  it('has exactly the operations of the OpenAPI document the service serves, with their methods and paths', async () => {
    const doc = (await t.anonymous.get('/docs-json')).body;
    const served = Object.entries<any>(doc.paths).flatMap(([path, item]) => HTTP_METHODS.filter((m) => item[m]).map((m) => `${item[m].operationId} ${m.toUpperCase()} ${path}`));
    const { OPERATIONS } = await import('@qhorus/client');
    const client = QhorusClient.operations().map((id) => `${id} ${OPERATIONS[id].method} ${OPERATIONS[id].path}`);
    expect(client.sort()).toEqual(served.sort());
  });

  it('agents and channels: register, list, create, read, reconfigure', async () => {
    expect((await admin.listAgents()).map((x) => x.name)).toEqual(expect.arrayContaining(['alice', 'bob']));
    const created = await alice.createChannel({ name: 'client-e2e', description: 'Client round trip', summaryThreshold: 5 });
    expect(created).toMatchObject({ name: 'client-e2e', summaryThreshold: 5, lastSeq: 0, warnings: [] });
    expect((await bob.listChannels()).map((c) => c.name)).toContain('client-e2e');
    expect(await bob.getChannel('client-e2e')).toMatchObject({ name: 'client-e2e', createdBy: 'alice' });
    expect(await alice.updateChannel('client-e2e', { summaryThreshold: 4 })).toMatchObject({ summaryThreshold: 4 });
  });

  it('posts and reads messages; a post whose answer is lost is retried with the same Idempotency-Key and stored once', async () => {
    const first = await alice.postMessage('client-e2e', { type: 'QUERY', content: 'Who reviews the migration?', correlationId: 'q-review' });
    expect(first).toMatchObject({ seq: 1, type: 'QUERY', sender: 'alice' });
    // The service stores the post, then the connection drops before the answer arrives.
    let dropped = 0;
    const lossy: typeof fetch = async (input, init) => {
      const res = await recorder.fetch(input, init);
      if (dropped++ === 0) throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      return res;
    };
    const flaky = new QhorusClient({ baseUrl: t.baseUrl, token: (await admin.registerAgent('carol')).token, fetch: lossy, retryDelayMs: 1 });
    const retried = await flaky.postMessage('client-e2e', { type: 'STATUS', content: 'carol is here' });
    const keys = recorder.requests.filter((r) => r.id === 'MessagesController_post').slice(-2).map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
    const all = await bob.listMessages('client-e2e');
    expect(all.filter((m) => m.content === 'carol is here')).toEqual([retried]);
    expect(all.map((m) => m.seq)).toEqual([1, 2]);
    expect(await bob.listMessages('client-e2e', { afterSeq: 1, limit: 1 })).toEqual([retried]);
  });

  it('posts a batch in consecutive seqs; a retry with the same key returns the same batch, stored once', async () => {
    await alice.createChannel({ name: 'client-batch' });
    const batch = [{ content: 'one' }, { type: 'QUERY' as const, content: 'two?' }];
    const first = await alice.postBatch('client-batch', batch, { idempotencyKey: 'batch-1' });
    expect(first.map((m) => [m.seq, m.content])).toEqual([[1, 'one'], [2, 'two?']]);
    expect(await alice.postBatch('client-batch', batch, { idempotencyKey: 'batch-1' })).toEqual(first);
    expect(await bob.listMessages('client-batch')).toEqual(first);
  });

  it('summary: read, refresh, override, history; thread summary once a thread closes', async () => {
    await bob.postMessage('client-e2e', { type: 'RESPONSE', content: 'bob reviews it', correlationId: 'q-review', inReplyTo: 1 });
    await bob.postMessage('client-e2e', { type: 'COMMAND', content: 'Run the suite', correlationId: 'run-1' });
    await alice.postMessage('client-e2e', { type: 'DONE', content: 'Suite green', correlationId: 'run-1' });
    const summary = await waitFor(async () => {
      const s = await alice.getSummary('client-e2e');
      return s.version >= 1 ? s : null;
    }, 'the first summary');
    expect(summary).toMatchObject({ channel: 'client-e2e', coversThroughSeq: expect.any(Number) });
    expect(await alice.refreshSummary('client-e2e')).toMatchObject({ channel: 'client-e2e', queued: expect.any(Boolean) });
    const current = await waitFor(async () => {
      const s = await alice.getSummary('client-e2e');
      return s.pending === 0 ? s : null;
    }, 'a quiet summary');
    const overridden = await alice.overrideSummary('client-e2e', { text: 'Bob reviews; the suite is green.', expectedVersion: current.version });
    expect(overridden).toMatchObject({ text: 'Bob reviews; the suite is green.', version: current.version + 1 });
    const history = await alice.summaryHistory('client-e2e', { limit: 2 });
    expect(history.map((h) => h.version)).toEqual([overridden.version, overridden.version - 1]);
    const thread = await waitFor(() => alice.threadSummary('client-e2e', 'run-1').catch((e: QhorusError) => (e.statusCode === 404 ? null : Promise.reject(e))), 'the thread summary');
    expect(thread).toMatchObject({ correlationId: 'run-1', closedBy: 'DONE', firstSeq: 4, lastSeq: 5 });
  });

  it('threads and the inbox: the thread index, one thread with its messages, the caller\'s open obligations', async () => {
    await alice.postMessage('client-e2e', { type: 'QUERY', content: 'Bob, can you tag the release?', correlationId: 'q-tag', target: 'bob' });
    const threads = await bob.listThreads('client-e2e');
    expect(threads.map((th) => th.correlationId)).toEqual(expect.arrayContaining(['q-review', 'run-1', 'q-tag']));
    const tag = await bob.getThread('client-e2e', 'q-tag');
    expect(tag).toMatchObject({ correlationId: 'q-tag', opener: 'alice', owner: 'bob', closedSeq: null, summary: null });
    expect(tag.messages.map((m) => m.content)).toEqual(['Bob, can you tag the release?']);
    const inbox = await bob.inbox();
    expect(inbox.filter((i) => i.correlationId === 'q-tag')).toEqual([expect.objectContaining({ channel: 'client-e2e', reason: 'owed', content: 'Bob, can you tag the release?' })]);
  });

  it('context: the projection typed for the Anthropic SDK (and accepted by it), for OpenAI, and as text', async () => {
    const anthropic = await bob.anthropicContext('client-e2e', { keepLast: 3 });
    expect(anthropic.format).toBe('anthropic');
    // The SDK's own request type takes the messages as they are.
    const params: Anthropic.MessageCreateParamsNonStreaming = { model: 'claude-test', max_tokens: 100, messages: anthropic.messages };
    expect(params.messages[0].role).toBe('user');
    expect((params.messages[0].content as { type: string; text: string }[])[0]).toEqual({ type: 'text', text: expect.stringContaining('[Summary of messages') });
    const openai = await bob.openaiContext('client-e2e');
    expect(openai.messages.every((m) => m.content.every((p) => p.type === 'text' && p.text.length > 0))).toBe(true);
    const text = await bob.context('client-e2e', { format: 'text' });
    expect(text.messages).toBeUndefined();
    expect(text.text).toContain('Bob reviews; the suite is green.');
  });

  it('events: a live stream of typed events that reconnects by itself, resuming with Last-Event-ID, never repeating a message', async () => {
    const controller = new AbortController();
    let connections = 0;
    const reconnects: string[] = [];
    // The first connection is cut after its first event, as a proxy or a network would.
    const cutting: typeof fetch = async (input, init) => {
      const res = await recorder.fetch(input, init);
      return connections++ > 0 ? res : cutAfterFirstMessage(res);
    };
    const watcher = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN, fetch: cutting });
    const stream = watcher.events('client-e2e', { signal: controller.signal, reconnectDelayMs: 1, onReconnect: (why) => reconnects.push(why) });
    const got = take(stream, 2);
    await waitFor(async () => connections === 1 || null, 'the stream to open');
    const lastSeq = (await alice.getChannel('client-e2e')).lastSeq;
    const summaryVersion = (await alice.getSummary('client-e2e')).version;
    await alice.postMessage('client-e2e', { content: 'first live' });
    await waitFor(async () => connections === 2 || null, 'the reconnect');
    const second = recorder.requests.filter((r) => r.id === 'EventsController_stream').pop();
    expect(second?.headers.get('last-event-id')).toBe(String(lastSeq + 1));
    await alice.postMessage('client-e2e', { content: 'second live' });
    const events = await got;
    controller.abort();
    const messages = events.flatMap((e) => (e.event === 'message.posted' ? [e.data.content] : []));
    expect(messages).toEqual(['first live', 'second live']);
    // The reconnect named a seq and no summary version, so the service also replayed the current summary.
    const summaries = events.flatMap((e) => (e.event === 'summary.updated' ? [e.data.version] : []));
    expect(summaries[0]).toBe(summaryVersion);
    expect(reconnects).toEqual(['the stream ended']);
  });

  it('events: a message posted while the stream is down is replayed by the service on the Last-Event-ID reconnect', async () => {
    await alice.createChannel({ name: 'client-replay' });
    const controller = new AbortController();
    let connections = 0;
    let reopen!: () => void;
    const reopened = new Promise<void>((resolve) => (reopen = resolve));
    // Connection 1 is cut after its first message; connection 2 is held back until a message was
    // posted in the gap, so only the service's replay can deliver it.
    const gapped: typeof fetch = async (input, init) => {
      const n = ++connections;
      if (n === 2) await reopened;
      const res = await recorder.fetch(input, init);
      return n === 1 ? cutAfterFirstMessage(res) : res;
    };
    const watcher = new QhorusClient({ baseUrl: t.baseUrl, token: TEST_ADMIN_TOKEN, fetch: gapped });
    // From seq 0: the first message arrives whether it is posted before or after the stream attaches.
    const got = take(watcher.events('client-replay', { afterSeq: 0, signal: controller.signal, reconnectDelayMs: 1 }), 3);
    const first = await alice.postMessage('client-replay', { content: 'before the cut' });
    await waitFor(async () => connections === 2 || null, 'the reconnect');
    await alice.postMessage('client-replay', { content: 'posted while away' });
    reopen();
    await alice.postMessage('client-replay', { content: 'live again' });
    const events = await got;
    controller.abort();
    const resumed = recorder.requests.filter((r) => r.id === 'EventsController_stream').pop();
    expect(resumed?.headers.get('last-event-id')).toBe(String(first.seq));
    expect(events.map((e) => [e.id, e.event === 'message.posted' && e.data.content])).toEqual([
      [String(first.seq), 'before the cut'],
      [String(first.seq + 1), 'posted while away'],
      [String(first.seq + 2), 'live again'],
    ]);
  });

  it('waitForMessages: a long poll asleep on the service wakes on a matching post (and not on another)', async () => {
    await alice.createChannel({ name: 'client-wait' });
    // 20 s: far longer than the test, so an answer means the post woke it (a timeout answers []).
    const waiting = bob.waitForMessages('client-wait', { afterSeq: 0, waitMs: 20_000, type: ['QUERY'] });
    await waitFor(async () => t.app.get(LongPollWaits).sleepingCount === 1 || null, 'the wait to sleep');
    await alice.postMessage('client-wait', { type: 'STATUS', content: 'not a query' });
    const query = await alice.postMessage('client-wait', { type: 'QUERY', content: 'Ready to ship?', target: 'bob' });
    expect(await waiting).toEqual([query]);
  });

  it('read cursors: markRead moves the caller\'s cursor, never back; the channel views show readThroughSeq and unread', async () => {
    await alice.createChannel({ name: 'client-reads' });
    await alice.postBatch('client-reads', [{ content: 'a' }, { content: 'b' }, { content: 'c' }]);
    expect(await bob.getChannel('client-reads')).toMatchObject({ lastSeq: 3, readThroughSeq: 0, unread: 3 });
    expect(await bob.markRead('client-reads', 2)).toEqual({ channel: 'client-reads', readThroughSeq: 2, lastSeq: 3, unread: 1 });
    expect(await bob.markRead('client-reads', 1)).toEqual({ channel: 'client-reads', readThroughSeq: 2, lastSeq: 3, unread: 1 });
    expect((await bob.listChannels()).find((c) => c.name === 'client-reads')).toMatchObject({ readThroughSeq: 2, unread: 1 });
    expect(await alice.getChannel('client-reads')).toMatchObject({ readThroughSeq: 0, unread: 3 }); // per reader
    const beyond = await failure(bob.markRead('client-reads', 4));
    expect(beyond).toMatchObject({ statusCode: 400 });
    expect((beyond.details as { field: string }[]).map((d) => d.field)).toEqual(['throughSeq']);
  });

  it('errors: every non-2xx answer is a QhorusError with the API\'s {statusCode, error, message, details}; an unreachable service too', async () => {
    const wrongToken = new QhorusClient({ baseUrl: t.baseUrl, token: 'qh_wrong', fetch: recorder.fetch });
    expect(await failure(wrongToken.listChannels())).toMatchObject({ statusCode: 401, error: 'Unauthorized', message: expect.any(String) });
    expect(await failure(bob.getChannel('no-such-channel'))).toMatchObject({ statusCode: 404 });
    const bad = await failure(alice.createChannel({ name: 'Not A Slug', summaryThreshold: 0 }));
    expect(bad).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect((bad.details as { field: string }[]).map((d) => d.field)).toEqual(expect.arrayContaining(['name', 'summaryThreshold']));
    expect(await failure(alice.registerAgent('dave'))).toMatchObject({ statusCode: 403 });
    const nowhere = new QhorusClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, token: 'x', postAttempts: 2, retryDelayMs: 1 });
    const unreachable = await failure(nowhere.postMessage('any', { content: 'x' }));
    expect(unreachable).toMatchObject({ statusCode: 0, error: 'Unreachable', unreachable: true, message: expect.stringContaining('ECONNREFUSED') });
  });

  it('errors: something else at the URL is said to be so, once: an HTML page, a 2xx that is not JSON (not retried), a server that never answers (timeout)', async () => {
    const html = await foreignServer((_, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE HTML>\n<html>\n<body>File not found</body>\n</html>'));
    const okHtml = await foreignServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'));
    const silent = await foreignServer(null);
    try {
      const notFound = await failure(new QhorusClient({ baseUrl: html.url, token: 'x' }).listChannels());
      expect(notFound).toMatchObject({ statusCode: 404, message: "404 Not Found (an HTML page, not the API's JSON)" });
      const client = new QhorusClient({ baseUrl: okHtml.url, token: 'x', postAttempts: 3, retryDelayMs: 1 });
      const unreadable = await failure(client.postMessage('any', { content: 'x' }));
      expect(unreadable).toMatchObject({ statusCode: 200, error: 'Unreadable Answer', unreachable: false, retryable: false });
      expect(unreadable.message).toMatch(/answered 200 with a body that is not the API's JSON \(text\/html\): is it a Qhorus service\?/);
      expect(okHtml.requests()).toBe(1); // answered: a retry could post twice
      const waiting = await failure(new QhorusClient({ baseUrl: silent.url, token: 'x', timeoutMs: 200 }).listChannels());
      expect(waiting).toMatchObject({ statusCode: 0, unreachable: true, message: expect.stringContaining('no answer within 200 ms') });
    } finally {
      await Promise.all([html.close(), okHtml.close(), silent.close()]);
    }
  });

  it('operations: health, liveness, metrics and MCP', async () => {
    expect(await admin.health()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });
    expect(await admin.live()).toEqual({ status: 'ok' });
    expect(await admin.metrics()).toContain('qhorus_messages_posted_total');
    const tools = await alice.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(JSON.stringify(tools.result)).toContain('get_channel_context');
    expect(await failure(alice.call('McpController_getNotAllowed'))).toMatchObject({ statusCode: 405 });
    expect(await failure(alice.call('McpController_deleteNotAllowed'))).toMatchObject({ statusCode: 405 });
  });

  it('agents: rotate gives a new token and the old one stops working; revoke shuts the agent out', async () => {
    const erin = await admin.registerAgent('erin');
    const rotated = await admin.rotateAgentToken('erin');
    expect(rotated).toMatchObject({ name: 'erin', token: expect.any(String) });
    expect(rotated.token).not.toBe(erin.token);
    const oldClient = new QhorusClient({ baseUrl: t.baseUrl, token: erin.token, fetch: recorder.fetch });
    const newClient = new QhorusClient({ baseUrl: t.baseUrl, token: rotated.token, fetch: recorder.fetch });
    expect(await failure(oldClient.listChannels())).toMatchObject({ statusCode: 401 });
    expect(Array.isArray(await newClient.listChannels())).toBe(true);
    expect(await admin.revokeAgent('erin')).toMatchObject({ name: 'erin' });
    expect(await failure(newClient.listChannels())).toMatchObject({ statusCode: 401 });
    expect(await failure(admin.revokeAgent('nobody-here'))).toMatchObject({ statusCode: 404 });
  });

  it('data lifecycle: redact answers the tombstone, rebuild is accepted, delete frees the name, the audit log lists them, erase redacts', async () => {
    await alice.createChannel({ name: 'lc-client' });
    const posted = await alice.postMessage('lc-client', { type: 'STATUS', content: 'a pasted key' });
    const tombstone = await alice.redactMessage('lc-client', posted.seq, 'pasted a key');
    expect(tombstone).toMatchObject({ seq: posted.seq, content: null, redacted: { by: 'alice', reason: 'pasted a key' } });
    expect(await alice.rebuildSummary('lc-client')).toMatchObject({ channel: 'lc-client', note: expect.any(String) });
    expect(await alice.deleteChannel('lc-client')).toBeUndefined();
    expect(await failure(alice.getChannel('lc-client'))).toMatchObject({ statusCode: 404 });
    const audit = await admin.audit({ limit: 100 });
    expect(audit.map((e) => e.action)).toEqual(expect.arrayContaining(['message.redact', 'summary.rebuild', 'channel.delete']));
    expect(await failure(alice.audit())).toMatchObject({ statusCode: 403 });
    const gina = await admin.registerAgent('gina');
    const ginaClient = new QhorusClient({ baseUrl: t.baseUrl, token: gina.token, fetch: recorder.fetch });
    await alice.createChannel({ name: 'lc-erase' });
    await ginaClient.postMessage('lc-erase', { type: 'STATUS', content: 'gina was here' });
    expect(await admin.revokeAgent('gina', { erase: true })).toMatchObject({ name: 'gina', erased: 1 });
  });

  it('archive: an archived channel is read-only and listed only with archived=true; unarchived, it is back', async () => {
    await alice.createChannel({ name: 'client-shelf' });
    await alice.postMessage('client-shelf', { content: 'before the archive' });
    expect(await failure(bob.archiveChannel('client-shelf'))).toMatchObject({ statusCode: 403 }); // not the creator
    expect(await alice.archiveChannel('client-shelf')).toMatchObject({ name: 'client-shelf', archived: true, lastSeq: 1 });
    expect((await bob.listChannels()).map((c) => c.name)).not.toContain('client-shelf');
    expect((await bob.listChannels({ archived: false })).map((c) => c.name)).not.toContain('client-shelf');
    expect((await bob.listChannels({ archived: true })).find((c) => c.name === 'client-shelf')).toMatchObject({ archived: true, lastSeq: 1 });
    expect(await failure(alice.postMessage('client-shelf', { content: 'after the archive' }))).toMatchObject({ statusCode: 409, message: expect.stringMatching(/archived/) });
    expect((await bob.listMessages('client-shelf')).map((m) => m.content)).toEqual(['before the archive']); // still readable
    expect(await alice.unarchiveChannel('client-shelf')).toMatchObject({ name: 'client-shelf', archived: false });
    expect((await bob.listChannels()).find((c) => c.name === 'client-shelf')).toMatchObject({ archived: false });
    expect(await alice.postMessage('client-shelf', { content: 'after the archive' })).toMatchObject({ seq: 2 });
  });

  it('export: the NDJSON read line by line, the channel first, each message in seq order, the summary last; stopping early ends it', async () => {
    await alice.createChannel({ name: 'client-export', summaryThreshold: 10_000 });
    await alice.postBatch('client-export', [{ content: 'first entry' }, { type: 'QUERY', content: 'second entry?' }]);
    await alice.overrideSummary('client-export', { text: 'Two entries.' });
    const lines = await exported(bob.exportChannel('client-export'));
    expect(lines.map((l) => l.kind)).toEqual(['channel', 'message', 'message', 'summary']);
    expect(lines[0]).toMatchObject({ kind: 'channel', name: 'client-export', createdBy: 'alice', lastSeq: 2 });
    expect(lines.flatMap((l) => (l.kind === 'message' ? [[l.seq, l.type, l.content]] : []))).toEqual([
      [1, 'STATUS', 'first entry'],
      [2, 'QUERY', 'second entry?'],
    ]);
    expect(lines[3]).toMatchObject({ kind: 'summary', channel: 'client-export', text: 'Two entries.' });
    const first: ExportLine[] = [];
    for await (const line of bob.exportChannel('client-export')) {
      first.push(line);
      break; // ends the download
    }
    expect(first).toEqual([lines[0]]);
    expect(await failure(exported(bob.exportChannel('no-such-channel')))).toMatchObject({ statusCode: 404 });
  });

  it('search: finds a posted word in the channels the caller may read, with a snippet; filters by channel; `-word` excludes', async () => {
    await alice.createChannel({ name: 'client-search', summaryThreshold: 10_000 });
    await alice.createChannel({ name: 'client-search-private', members: ['alice'], summaryThreshold: 10_000 });
    const hit = await alice.postMessage('client-search', { content: 'The flamingo migration is scheduled for Friday.' });
    await alice.postMessage('client-search', { content: 'Nothing about birds here.' });
    const hidden = await alice.postMessage('client-search-private', { content: 'flamingo secrets' });
    const page = await bob.search('flamingo');
    expect(page.results.map((r) => [r.channel, r.seq])).toEqual([['client-search', hit.seq]]); // not the private one
    expect(page.results[0]).toMatchObject({ sender: 'alice', type: 'STATUS', snippet: expect.stringMatching(/flamingo/i) });
    expect(page.nextCursor).toBeNull();
    expect((await alice.search('flamingo')).results.map((r) => r.channel).sort()).toEqual(['client-search', 'client-search-private']);
    expect((await alice.search('flamingo', { channel: 'client-search-private' })).results.map((r) => r.seq)).toEqual([hidden.seq]);
    expect((await alice.search('flamingo -secrets')).results.map((r) => r.channel)).toEqual(['client-search']);
    expect((await bob.search('zeppelin')).results).toEqual([]);
  });

  it('webhooks: create (its secret shown once), list, get, test (delivered signed, in the deliveries log), delete', async () => {
    const rx = await new WebhookReceiver().start();
    try {
      await bob.createChannel({ name: 'client-hooks' });
      const created = await bob.createWebhook({ url: rx.url, events: ['message.posted'], channels: ['client-hooks'] });
      expect(created).toMatchObject({ owner: 'bob', url: rx.url, events: ['message.posted'], channels: ['client-hooks'], disabledAt: null, secret: expect.stringMatching(/^whsec_/) });
      expect((await bob.listWebhooks()).map((h) => h.id)).toEqual([created.id]);
      expect((await admin.listWebhooks()).map((h) => h.id)).toContain(created.id);
      const got = await bob.getWebhook(created.id);
      expect(got).toMatchObject({ id: created.id, owner: 'bob', url: rx.url });
      expect(got).not.toHaveProperty('secret');
      expect(await failure(alice.getWebhook(created.id))).toMatchObject({ statusCode: 404 }); // another agent's
      const { eventId } = await bob.testWebhook(created.id);
      const [r] = await waitFor(async () => rx.ofType('webhook.test').length > 0 && rx.ofType('webhook.test'), 'the test event');
      expect(r.headers['webhook-id']).toBe(eventId);
      expect(new Webhook(created.secret).verify(r.body, r.headers)).toMatchObject({ type: 'webhook.test', data: { webhookId: created.id } });
      const log = await waitFor(async () => {
        const attempts = await bob.webhookDeliveries(created.id);
        return attempts.length > 0 && attempts;
      }, 'the logged attempt');
      expect(log).toEqual([expect.objectContaining({ eventId, type: 'webhook.test', attempt: 1, status: 200 })]);
      expect(await bob.webhookDeliveries(created.id, { limit: 1 })).toHaveLength(1);
      expect(await bob.deleteWebhook(created.id)).toMatchObject({ id: created.id, owner: 'bob' });
      expect(await bob.listWebhooks()).toEqual([]);
      expect(await failure(bob.getWebhook(created.id))).toMatchObject({ statusCode: 404 });
    } finally {
      await rx.stop();
    }
  });

  it('has exercised every operation of the document through the client (this file covers every route)', () => {
    const missing = QhorusClient.operations().filter((id) => !recorder.seen.has(id));
    expect(missing).toEqual([]);
  });
});
