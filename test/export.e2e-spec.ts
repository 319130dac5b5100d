import { ExportRepository } from '../apps/channel-service/src/export/export.repository';
import { RetentionSweepService } from '../apps/channel-service/src/retention/retention-sweep.service';
import { ApiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const PAGE_SIZE = 50;
/** Enough that the export (about 20 MB) cannot sit in the socket buffers whole. */
const LONG_MESSAGES = 10_000;
const LONG_CONTENT_CHARS = 2_000;
const BATCH = 500;
/** A paused reader's wait: long enough for a server that did not stream to read every page. */
const PAUSE_MS = 500;

/**
 * Export (DESIGN §10): `GET /channels/{name}/export` is NDJSON, streamed: the channel, every kept
 * message (tombstones as tombstones), the current summary.
 */
describe('export', () => {
  let t: TestApp;
  let alice: ApiClient;

  beforeAll(async () => {
    t = await startTestApp('export', { inProcessQueue: true, env: { QHORUS_EXPORT_PAGE_SIZE: String(PAGE_SIZE), QHORUS_RETENTION_SWEEP_MS: '3600000' } });
    alice = await t.agent('alice');
  });
  afterAll(() => t?.close());

  const exportLines = async (channel: string, client = alice) => {
    const res = await fetch(`${t.baseUrl}/api/v1/channels/${channel}/export`, { headers: { authorization: `Bearer ${client.token}` } });
    return { res, lines: (await res.text()).split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
  };

  it('a channel line, every kept message in seq order with tombstones for redactions, then the current summary', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'ledger', summaryThreshold: 100_000, retention: { maxMessages: 3 } })).status).toBe(201);
    const messages = [
      { type: 'STATUS', content: 'old 1' },
      { type: 'STATUS', content: 'old 2' },
      { type: 'QUERY', content: 'where is the key?', correlationId: 'key' },
      { type: 'RESPONSE', content: 'sk-secret-123', correlationId: 'key' },
      { type: 'EVENT', content: 'telemetry' },
      { type: 'STATUS', content: 'new 6' },
    ];
    expect((await alice.post('/api/v1/channels/ledger/messages/batch', { messages: messages.slice(0, 2) })).status).toBe(201);
    expect((await alice.put('/api/v1/channels/ledger/summary', { text: 'two old messages' })).status).toBe(200);
    expect((await alice.post('/api/v1/channels/ledger/messages/batch', { messages: messages.slice(2) })).status).toBe(201);
    await t.app.get(RetentionSweepService).pass(); // removes 1-2 (the summary's watermark)
    const redacted = await alice.post('/api/v1/channels/ledger/messages/4/redact', { reason: 'a key was pasted' });
    expect(redacted.status).toBe(200);

    const { res, lines } = await exportLines('ledger');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(lines.map((l) => l.kind)).toEqual(['channel', 'message', 'message', 'message', 'message', 'summary']);
    expect(lines[0]).toMatchObject({ kind: 'channel', name: 'ledger', firstSeq: 3, lastSeq: 6, retention: { maxAgeDays: null, maxMessages: 3 }, archived: false });
    expect(lines.slice(1, 5).map((l) => [l.seq, l.type, l.content])).toEqual([
      [3, 'QUERY', 'where is the key?'],
      [4, 'RESPONSE', null],
      [5, 'EVENT', 'telemetry'],
      [6, 'STATUS', 'new 6'],
    ]);
    expect(lines[2].redacted).toMatchObject({ by: 'alice', reason: 'a key was pasted' });
    expect(typeof lines[2].redacted.at).toBe('string');
    expect(lines[5]).toMatchObject({ kind: 'summary', channel: 'ledger', firstSeq: 3 });
    const body = JSON.stringify(lines);
    expect(body).not.toContain('sk-secret-123');
    expect(body).not.toContain('old 1');
  });

  it('a private channel the caller cannot read is a 404 (JSON), a query parameter a 400', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'vault', members: ['alice'] })).status).toBe(201);
    const bob = await t.agent('bob');
    const refused = await bob.get('/api/v1/channels/vault/export');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ statusCode: 404 });
    expect((await alice.get('/api/v1/channels/vault/export?since=3')).status).toBe(400);
    const { lines } = await exportLines('vault');
    expect(lines.map((l) => l.kind)).toEqual(['channel', 'summary']);
  });

  it('streams: the first lines arrive while most pages are still unread, and a paused reader holds the rest back', async () => {
    expect((await alice.post('/api/v1/channels', { name: 'long', summaryThreshold: 100_000 })).status).toBe(201);
    const content = 'x'.repeat(LONG_CONTENT_CHARS);
    for (let posted = 0; posted < LONG_MESSAGES; posted += BATCH) {
      const res = await alice.post('/api/v1/channels/long/messages/batch', { messages: Array.from({ length: BATCH }, () => ({ type: 'STATUS', content })) });
      expect(res.status).toBe(201);
    }
    const pages = jest.spyOn(t.app.get(ExportRepository), 'page');
    const res = await fetch(`${t.baseUrl}/api/v1/channels/long/export`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    await new Promise((r) => setTimeout(r, PAUSE_MS));
    const readWhilePaused = pages.mock.calls.length;
    const totalPages = LONG_MESSAGES / PAGE_SIZE;
    expect(readWhilePaused).toBeLessThan(totalPages / 2);
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += decoder.decode(chunk.value, { stream: true });
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(LONG_MESSAGES + 2);
    expect(JSON.parse(lines[LONG_MESSAGES]).seq).toBe(LONG_MESSAGES);
    expect(pages.mock.calls.length).toBeGreaterThanOrEqual(totalPages);
    pages.mockRestore();
  });
});
