import { QhorusClient, QhorusError, toAnthropicMessages } from '../src';

const BASE = 'http://qhorus.test';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const MESSAGE = { id: '1', channel: 'c', seq: 1, type: 'STATUS', sender: 'a', content: 'x', topic: '', correlationId: null, inReplyTo: null, target: null, metadata: null, createdAt: '2025-01-01T00:00:00.000Z' };

/** A fetch that answers from a script and records each request. */
function scripted(...answers: (() => Response | Promise<Response>)[]) {
  const requests: Request[] = [];
  const impl: typeof fetch = async (input, init) => {
    requests.push(new Request(input, init));
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    return next();
  };
  return { impl, requests };
}

describe('QhorusClient (fake fetch)', () => {
  it('sends the long poll as GET messages with afterSeq, waitMs and the filters (type as a comma list)', async () => {
    const f = scripted(() => json(200, [MESSAGE]));
    const client = new QhorusClient({ baseUrl: BASE, token: 'qh_t', fetch: f.impl });
    expect(await client.waitForMessages('ops', { afterSeq: 7, waitMs: 25_000, type: ['QUERY', 'COMMAND'], target: 'bob' })).toEqual([MESSAGE]);
    const url = new URL(f.requests[0].url);
    expect(url.pathname).toBe('/api/v1/channels/ops/messages');
    expect(Object.fromEntries(url.searchParams)).toEqual({ afterSeq: '7', waitMs: '25000', type: 'QUERY,COMMAND', target: 'bob' });
    expect(f.requests[0].headers.get('authorization')).toBe('Bearer qh_t');
  });

  it('retries a post after a 429 (its Retry-After) and a 503 with one Idempotency-Key; a 400 is thrown at once', async () => {
    const busy = { statusCode: 429, error: 'Too Many Requests', message: 'slow down' };
    const down = { statusCode: 503, error: 'Service Unavailable', message: 'Postgres is unreachable' };
    const f = scripted(() => json(429, busy, { 'retry-after': '0' }), () => json(503, down), () => json(201, MESSAGE));
    const client = new QhorusClient({ baseUrl: BASE, token: 't', fetch: f.impl, retryDelayMs: 1 });
    expect(await client.postMessage('c', { content: 'x' }, { idempotencyKey: 'k-1' })).toEqual(MESSAGE);
    expect(f.requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['k-1', 'k-1', 'k-1']);

    const bad = { statusCode: 400, error: 'Bad Request', message: 'Invalid request: content must be shorter', details: [{ field: 'content', problems: ['too long'] }] };
    const g = scripted(() => json(400, bad));
    const error = await new QhorusClient({ baseUrl: BASE, fetch: g.impl }).postMessage('c', { content: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QhorusError);
    expect(error).toMatchObject(bad);
    expect(g.requests).toHaveLength(1);
  });

  it('gives up after postAttempts and throws the last error', async () => {
    const down = { statusCode: 503, error: 'Service Unavailable', message: 'down' };
    const f = scripted(() => json(503, down), () => json(503, down));
    const error = await new QhorusClient({ baseUrl: BASE, fetch: f.impl, postAttempts: 2, retryDelayMs: 1 }).postMessage('c', { content: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 503, retryable: true });
    expect(f.requests).toHaveLength(2);
  });

  it('turns a foreign error page into the typed error too', async () => {
    const f = scripted(() => new Response('<html>502 Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const error = await new QhorusClient({ baseUrl: BASE, fetch: f.impl }).getChannel('c').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'QhorusError', statusCode: 502, error: 'Bad Gateway', message: "502 Bad Gateway (an HTML page, not the API's JSON)", request: 'GET http://qhorus.test/api/v1/channels/c' });
  });

  it('events: resumes with the newest seq and summary version as Last-Event-ID, and drops what a replay repeats', async () => {
    const frame = (event: string, id: string, data: unknown) => `event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`;
    const stream = (...frames: string[]) => () => new Response(frames.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const summary = { channel: 'c', version: 2, coversThroughSeq: 1, updatedBy: 'summariser:heuristic' };
    const f = scripted(
      stream(frame('message.posted', '1', MESSAGE), frame('summary.updated', '1s2', summary)),
      // The replay overlaps: message 1 and summary v2 again, then message 2.
      stream(frame('message.posted', '1', MESSAGE), frame('summary.updated', '1s2', summary), frame('message.posted', '2', { ...MESSAGE, seq: 2, content: 'y' })),
    );
    const controller = new AbortController();
    const client = new QhorusClient({ baseUrl: BASE, token: 't', fetch: f.impl });
    const seen: string[] = [];
    for await (const e of client.events('c', { signal: controller.signal, reconnectDelayMs: 1, lastEventId: '0' })) {
      seen.push(e.event === 'message.posted' ? `m${e.data.seq}` : `s${e.data.version}`);
      if (seen.length === 3) controller.abort();
    }
    expect(seen).toEqual(['m1', 's2', 'm2']);
    expect(f.requests.map((r) => r.headers.get('last-event-id'))).toEqual(['0', '1s2']);
  });

  it('events: stops with the typed error when the service refuses the stream (401, 404)', async () => {
    const f = scripted(() => json(404, { statusCode: 404, error: 'Not Found', message: 'Channel nope not found' }));
    const events = new QhorusClient({ baseUrl: BASE, fetch: f.impl }).events('nope');
    await expect(events.next()).rejects.toMatchObject({ statusCode: 404, message: 'Channel nope not found' });
  });

  it('refuses to read an openai or text projection as Anthropic messages', () => {
    const context = { format: 'text', text: 'x' } as Parameters<typeof toAnthropicMessages>[0];
    expect(() => toAnthropicMessages(context)).toThrow(/format=anthropic/);
  });
});
