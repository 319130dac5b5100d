import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from './support/test-app';

/** One raw HTTP exchange: bytes as given, headers as a list (so one may repeat), chunked when asked. */
interface RawRequest {
  method: string;
  path: string;
  headers: [string, string][];
  body?: Buffer;
  chunked?: boolean;
}

/** Written to the socket by hand: Node's client will not send a header twice or bytes that are not UTF-8 as they are. */
function send(baseUrl: string, r: RawRequest): Promise<{ status: number; body: any }> {
  const url = new URL(baseUrl);
  const headers: [string, string][] = [['host', url.host], ['connection', 'close'], ['authorization', `Bearer ${TEST_ADMIN_TOKEN}`], ...r.headers];
  if (r.body && !r.chunked) headers.push(['content-length', String(r.body.length)]);
  if (r.chunked) headers.push(['transfer-encoding', 'chunked']);
  const head = Buffer.from(`${r.method} ${r.path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`, 'latin1');
  const body = !r.body ? Buffer.alloc(0) : r.chunked ? Buffer.concat([Buffer.from(`${r.body.length.toString(16)}\r\n`), r.body, Buffer.from('\r\n0\r\n\r\n')]) : r.body;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(Buffer.concat([head, body]))); // the server closes (connection: close)
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const payload = text.slice(split + 4);
      resolve({ status, body: payload ? JSON.parse(payload) : undefined });
    });
  });
}

const JSON_TYPE: [string, string] = ['content-type', 'application/json'];
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('request framing: bytes, charsets, encodings and repeated headers are refused by name, nothing stored', () => {
  let t: TestApp;
  const post = (body: Buffer, extra: [string, string][] = [], chunked = false) =>
    send(t.baseUrl, { method: 'POST', path: '/api/v1/channels/framing/messages', headers: extra.some(([k]) => k === 'content-type') ? extra : [JSON_TYPE, ...extra], body, chunked });
  const stored = async () => (await t.admin.get('/api/v1/channels/framing/messages')).body.map((m: { content: string }) => m.content);

  beforeAll(async () => {
    t = await startTestApp('request-framing');
    expect((await t.admin.post('/api/v1/channels', { name: 'framing' })).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a body that is not UTF-8 is a 400 saying so, with Content-Length and chunked alike (never stored as U+FFFD)', async () => {
    const invalid = bytes('{"content":"a', [0xed], 'b"}');
    const cesuSurrogate = bytes('{"content":"a', [0xed, 0xa0, 0x80], 'b"}');
    for (const [body, chunked] of [[invalid, false], [invalid, true], [cesuSurrogate, true]] as const) {
      const res = await post(body, [], chunked);
      expect(res).toMatchObject({ status: 400, body: { message: expect.stringContaining('not valid UTF-8') } });
    }
    expect(await stored()).toEqual([]);
  });

  it('a charset other than UTF-8, or a compressed body, is a 415 naming it; UTF-8 spelt either way is taken', async () => {
    const latin1 = await post(Buffer.from('{"content":"caf\xe9"}', 'latin1'), [['content-type', 'application/json; charset=iso-8859-1']]);
    expect(latin1).toMatchObject({ status: 415, body: { message: expect.stringContaining('charset iso-8859-1') } });
    const gzipped = await post(gzipSync('{"content":"zipped"}'), [['content-encoding', 'gzip']]);
    expect(gzipped).toMatchObject({ status: 415, body: { message: expect.stringContaining('Content-Encoding gzip') } });
    const bogus = await post(bytes('{"content":"plain"}'), [['content-encoding', 'bogus']]);
    expect(bogus.status).toBe(415);
    expect(await stored()).toEqual([]);

    const utf8 = await post(bytes('{"content":"café"}'), [['content-type', 'application/json; charset="UTF-8"']]);
    expect(utf8.status).toBe(201);
    const identity = await post(bytes('{"content":"as is"}'), [['content-encoding', 'identity']]);
    expect(identity.status).toBe(201);
    expect(await stored()).toEqual(['café', 'as is']);
  });

  it('a number beyond a double (1e400) anywhere in metadata is a 400 naming its path, not stored as null', async () => {
    const res = await post(bytes('{"content":"n","metadata":{"deep":{"list":[1,-1e400]}}}'));
    expect(res).toMatchObject({ status: 400, body: { details: [{ field: 'metadata.deep.list.1' }] } });
    expect(res.body.message).toContain('finite');
  });

  it('an Idempotency-Key sent twice is a 400 (Node would join the two into a third key); once is taken', async () => {
    const twice = await post(bytes('{"content":"keyed"}'), [['idempotency-key', 'k2'], ['idempotency-key', 'k3']]);
    expect(twice).toMatchObject({ status: 400, body: { message: 'Idempotency-Key was sent 2 times; send it once' } });
    const once = await post(bytes('{"content":"keyed"}'), [['idempotency-key', 'k2']]);
    expect(once.status).toBe(201);
  });

  it('a null body is a 400, not a no-op; blank topics and thread ids are refused like empty ones', async () => {
    const patch = await send(t.baseUrl, { method: 'PATCH', path: '/api/v1/channels/framing', headers: [JSON_TYPE], body: bytes('null') });
    expect(patch).toMatchObject({ status: 400, body: { message: 'Body must be a JSON object, not null' } });
    for (const field of ['topic', 'correlationId']) {
      const res = await post(bytes(JSON.stringify({ content: 'x', [field]: '   ' })));
      expect(res).toMatchObject({ status: 400, body: { details: [{ field, problems: [`${field} must not be blank`] }] } });
    }
  });

  it('content null or "" on a type whose content is optional is as if left out; on others it is required', async () => {
    for (const content of ['null', '""']) {
      const done = await post(bytes(`{"type":"DONE","content":${content}}`));
      expect(done).toMatchObject({ status: 201, body: { type: 'DONE', content: '' } });
    }
    const handoff = await post(bytes('{"type":"HANDOFF","content":"yours"}'));
    expect(handoff).toMatchObject({ status: 400, body: { details: [{ field: 'target', problems: ['target must be an agent name (required for HANDOFF)'] }] } }); // said once
    const status = await post(bytes('{"type":"STATUS","content":null}'));
    expect(status).toMatchObject({ status: 400, body: { details: [{ field: 'content' }] } });
  });

  it('the summary override takes expectedVersion null as not given, and refuses one beyond any version', async () => {
    expect((await t.admin.put('/api/v1/channels/framing/summary', { text: 'by hand', expectedVersion: null })).status).toBe(200);
    const huge = await t.admin.put('/api/v1/channels/framing/summary', '{"text":"by hand","expectedVersion":99999999999999999999}');
    expect(huge.status).toBe(400);
    expect(huge.body.details).toEqual([{ field: 'expectedVersion', problems: [expect.stringContaining('must not be greater than')] }]);
  });

  it('routes that take no query parameters refuse one by name', async () => {
    for (const path of ['/api/v1/agents?limit=-1', '/api/v1/channels/framing?x=1', '/api/v1/channels/framing/summary?fresh=1']) {
      const res = await t.admin.get(path);
      expect({ path, status: res.status, problems: res.body.details?.[0]?.problems }).toEqual({ path, status: 400, problems: ['is not a query parameter of this route (it takes none)'] });
    }
    // GET /channels takes one (`archived`, DESIGN §10): any other is refused by name too.
    const listing = await t.admin.get('/api/v1/channels?limt=5');
    expect({ status: listing.status, details: listing.body.details }).toEqual({ status: 400, details: [{ field: 'limt', problems: [expect.stringContaining('should not exist')] }] });
  });
});
