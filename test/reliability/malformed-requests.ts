import fc from 'fast-check';
import { AppRoute } from './app-routes';

/**
 * fast-check arbitraries for requests the service must refuse (or that can only read). A
 * request starts close to a valid one (a real route, a real channel, a real token) and carries
 * at least one defect; every body it sends is defective: not JSON, too deep, too big, the wrong
 * media type, an object with a field no endpoint declares, or a valid body with exactly one
 * field set to a value the endpoint must refuse.
 */
export interface FuzzContext {
  routes: AppRoute[];
  /** Channels that exist (public and private). */
  channels: string[];
  missingChannel: string;
  threadId: string;
  tokens: { admin: string; member: string; outsider: string };
  bodyLimitBytes: number;
  maxDepth: number;
}

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'];
const JSON_TYPE = 'application/json';

// ---- values ------------------------------------------------------------------------------

/** JSON literals (as text) that are never a valid integer for a bounded, positive field. */
const BAD_INTEGERS = ['0', '-1', '1.5', '"5"', '1e400', '-1e400', '123456789012345678901234567890', '9223372036854775808', '2147483648', 'true', '[]', '{}'];
/** Valid as integers, yet beyond anything stored: the service must refuse them without writing. */
const HUGE_INTEGERS = ['99999', '2147483648', '9007199254740993', '9223372036854775807', '9223372036854775808', '123456789012345678901234567890', '1e400'];
const str = (s: string) => JSON.stringify(s);
const NUL = str('a\u0000b');

/** Per field, values its endpoint must refuse (JSON text). `null` is absent on purpose: optional fields accept it. */
const INVALID_VALUES: Record<string, string[]> = {
  agentName: [str(''), str(' '), str('a b'), str('x'.repeat(65)), '1', 'null', '[]', '{}', str('../x'), str('ü'), NUL, str('-start')],
  channelName: [str(''), str('UPPER'), str('a b'), str('x'.repeat(65)), '1', 'null', '[]', str('../x'), str('ü'), NUL, str('-start')],
  description: ['1', str('x'.repeat(2001)), '[]', '{}', 'true'],
  summaryThreshold: [...BAD_INTEGERS, '100001'],
  summaryThresholdTokens: [...BAD_INTEGERS, '10000001'],
  updateAfterSeconds: [...BAD_INTEGERS, '604801'],
  summariser: [str('nope'), '1', str(''), str('x'.repeat(65)), '[]'],
  members: [str('alice'), '[1]', '[' + str('bad name') + ']', '[' + str('') + ']', '{}', `[${Array(1001).fill(str('a')).join(',')}]`, `[${NUL}]`],
  type: [str('SHOUT'), '1', str(''), '[]'],
  content: ['1', str(''), str('   '), str('x'.repeat(70_000)), NUL, '[]', '{}', 'true', 'null'],
  topic: [str(''), str('   '), str('t'.repeat(129)), '1', '[]', NUL],
  correlationId: [str(''), str('  '), str('c'.repeat(129)), '1', NUL],
  inReplyTo: ['0', '-1', '1.5', '"1"', 'true', ...HUGE_INTEGERS],
  target: [str('bad name'), '1', str(''), NUL],
  metadata: [str('str'), '[]', '1', 'true', '{"n":1e400}', '{"a":[-1e400]}', '{"a":"\\u0000"}', '{"\\u0000":1}', '{"a":"\\ud800"}'],
  sender: [str('someone-else'), '1'],
  text: [str(''), str('   '), '1', str('x'.repeat(100_001)), NUL],
  expectedVersion: ['-1', '1.5', '"1"', ...HUGE_INTEGERS],
};

/** A valid body per write endpoint, and which of its fields (INVALID_VALUES keys) to break. */
const VALID_BODIES: { method: string; url: RegExp; base: Record<string, string>; fields: Record<string, string> }[] = [
  { method: 'POST', url: /^\/api\/v1\/agents$/, base: { name: str('fz-new') }, fields: { name: 'agentName' } },
  {
    method: 'POST',
    url: /^\/api\/v1\/channels$/,
    base: { name: str('fz-new') },
    fields: { name: 'channelName', description: 'description', summaryThreshold: 'summaryThreshold', summaryThresholdTokens: 'summaryThresholdTokens', updateAfterSeconds: 'updateAfterSeconds', summariser: 'summariser', members: 'members' },
  },
  {
    method: 'PATCH',
    url: /^\/api\/v1\/channels\/:name$/,
    base: {},
    fields: { description: 'description', summaryThreshold: 'summaryThreshold', summaryThresholdTokens: 'summaryThresholdTokens', updateAfterSeconds: 'updateAfterSeconds', summariser: 'summariser', members: 'members' },
  },
  {
    method: 'POST',
    url: /^\/api\/v1\/channels\/:name\/messages$/,
    base: { content: str('fz') },
    fields: Object.fromEntries(['type', 'content', 'topic', 'correlationId', 'inReplyTo', 'target', 'metadata', 'sender'].map((f) => [f, f])),
  },
  { method: 'PUT', url: /^\/api\/v1\/channels\/:name\/summary$/, base: { text: str('fz') }, fields: { text: 'text', expectedVersion: 'expectedVersion' } },
];

/** Query keys each read endpoint declares; others get generic ones. */
const QUERY_KEYS: [RegExp, string[]][] = [
  [/\/messages$/, ['afterSeq', 'limit', 'includeEvents']],
  [/\/history$/, ['limit', 'beforeVersion']],
  [/\/context$/, ['viewer', 'keepLast', 'maxTokens', 'format']],
  [/\/events$/, ['includeEvents', 'afterSeq']],
];
const GENERIC_QUERY_KEYS = ['limit', 'afterSeq', 'includeEvents', 'format', 'sessionId'];
const HOSTILE_NUMERIC_QUERY = ['-1', '0', '1e400', '99999999999999999999999', '9223372036854775808', '9007199254740993', '2147483648', '1.5', '0x10', 'NaN', '%201'];
const HOSTILE_QUERY = ['true', 'yes', '', '%', '%zz', 'anthropic', 'xml', '%00', 'a'.repeat(2000), '%F0%9F%92%A9'];

const BROKEN_JSON = [
  '{', '{"content": ', '{"content": "x",}', "{'content': 'x'}", '{"content": "x"}}', 'NaN', 'undefined', '{"a":1}{"b":2}', '\u0000',
  '{"content": "\\x41"}', '{"__proto__": {"isAdmin": true}}', '{"constructor": {"prototype": {"x": 1}}}',
];
const NON_OBJECT_JSON = ['[]', '[1,2,3]', '"a string"', '123', 'null', 'true', '1e999', '[[[[]]]]'];
const GARBAGE_SEGMENTS = ['..', '%2e%2e', '%00', '%', '%zz', '%E0%A4%A', '~', '*', ';', "'", '%20', '%F0%9F%92%A9', 'a'.repeat(300), 'channels', 'summary', 'mcp'];
const CONTENT_TYPES = ['application/json; charset=utf-16', 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/octet-stream'];
const BAD_IDEMPOTENCY_KEYS = ['', ' ', 'k'.repeat(201), 'k'.repeat(5000)];

/** Header-safe text: fetch refuses control characters and non-latin1 in header values. */
const headerText = (maxLength = 40) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });
const anyText = (maxLength = 30) => fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'binary', maxLength }), fc.string({ unit: 'grapheme', maxLength }));
const objectText = (entries: [string, string][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
const parsesAsJson = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

function jsonValueText(depth: number): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    fc.constantFrom(...Object.values(INVALID_VALUES).flat()),
    anyText().map((s) => JSON.stringify(s)),
    fc.integer().map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  );
  if (depth <= 0) return leaf;
  return fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(jsonValueText(depth - 1), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`) },
    { weight: 1, arbitrary: fc.dictionary(anyText(8), jsonValueText(depth - 1), { maxKeys: 4 }).map((o) => objectText(Object.entries(o))) },
  );
}

// ---- bodies --------------------------------------------------------------------------------

interface Body {
  body: string;
  contentType: string;
  /** Set when the body is valid and the defect is this bad Idempotency-Key. */
  idempotencyKey?: string;
}

/** Known fields with odd values, always plus a field no endpoint declares (a DTO route must answer 400). */
const objectWithUnknownField = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...Object.keys(INVALID_VALUES), 'content', 'name', 'jsonrpc', 'method', 'params', 'id'), jsonValueText(2)), { maxLength: 6 }),
    fc.tuple(anyText(12).map((k) => `__fuzz_${k}`), jsonValueText(1)),
  )
  .map(([known, unknown]) => objectText([...known, unknown]));

/** A body no endpoint can accept, whatever it is. */
function brokenBody(ctx: FuzzContext): fc.Arbitrary<Body> {
  const asJson = (body: fc.Arbitrary<string>) => body.map((b): Body => ({ body: b, contentType: JSON_TYPE }));
  const nested = (levels: number) => '{"metadata":' + '{"a":'.repeat(levels) + '1' + '}'.repeat(levels) + '}';
  return fc.oneof(
    { weight: 3, arbitrary: asJson(fc.constantFrom(...BROKEN_JSON)) },
    { weight: 2, arbitrary: asJson(anyText(60).filter((s) => s !== '' && !parsesAsJson(s))) },
    { weight: 2, arbitrary: asJson(fc.constantFrom(ctx.maxDepth, ctx.maxDepth * 4, 1_000, 5_000, 20_000).map(nested)) },
    { weight: 1, arbitrary: asJson(fc.constantFrom(...NON_OBJECT_JSON)) },
    { weight: 4, arbitrary: asJson(objectWithUnknownField) },
    { weight: 2, arbitrary: fc.tuple(objectWithUnknownField, fc.constantFrom(...CONTENT_TYPES)).map(([body, contentType]) => ({ body, contentType })) },
    { weight: 1, arbitrary: asJson(fc.constant(`{"content":"${'x'.repeat(ctx.bodyLimitBytes)}","__fuzz":1}`)) },
  );
}

/** A valid body for the route with exactly one field broken, or a valid body with a bad Idempotency-Key. */
function singleDefectBody(spec: (typeof VALID_BODIES)[number], route: AppRoute): fc.Arbitrary<Body> {
  const brokenField = fc.constantFrom(...Object.entries(spec.fields)).chain(([field, kind]) =>
    fc.constantFrom(...INVALID_VALUES[kind]).map((value): Body => ({ body: objectText(Object.entries({ ...spec.base, [field]: value })), contentType: JSON_TYPE })),
  );
  if (!route.url.endsWith('/messages')) return brokenField;
  const badKey = fc.constantFrom(...BAD_IDEMPOTENCY_KEYS).map((key): Body => ({ body: objectText(Object.entries(spec.base)), contentType: JSON_TYPE, idempotencyKey: key }));
  return fc.oneof({ weight: 4, arbitrary: brokenField }, { weight: 1, arbitrary: badKey });
}

function bodyFor(route: AppRoute, method: string, ctx: FuzzContext): fc.Arbitrary<Body | null> {
  if (method === 'GET' || method === 'HEAD') return fc.constant(null);
  const spec = method === route.method ? VALID_BODIES.find((b) => b.method === method && b.url.test(route.url)) : undefined;
  if (!spec) return brokenBody(ctx);
  return fc.oneof({ weight: 1, arbitrary: brokenBody(ctx) }, { weight: 2, arbitrary: singleDefectBody(spec, route) });
}

// ---- paths, queries, headers -------------------------------------------------------------------

function pathFor(route: AppRoute, ctx: FuzzContext): fc.Arbitrary<string> {
  const garbage = fc.oneof(fc.constantFrom(...GARBAGE_SEGMENTS), anyText(20).map(encodeURIComponent));
  const valueFor = (param: string) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...(param === ':correlationId' ? [ctx.threadId] : ctx.channels)) },
      { weight: 1, arbitrary: fc.constant(param === ':correlationId' ? 'fz-no-thread' : ctx.missingChannel) },
      { weight: 2, arbitrary: garbage },
    );
  const params = route.url.match(/:[A-Za-z]+|\*/g) ?? [];
  return fc.tuple(...params.map(valueFor)).map((values) => {
    let i = 0;
    return route.url.replace(/:[A-Za-z]+|\*/g, () => values[i++]);
  });
}

const randomPath = fc
  .array(fc.oneof(fc.constantFrom('api', 'v1', 'channels', 'agents', 'mcp', 'summary', 'messages', ...GARBAGE_SEGMENTS), anyText(10).map(encodeURIComponent)), { maxLength: 6 })
  .map((segments) => `/${segments.join('/')}`);

function queryFor(url: string): fc.Arbitrary<string> {
  const keys = QUERY_KEYS.find(([pattern]) => pattern.test(url))?.[1] ?? GENERIC_QUERY_KEYS;
  const pair = fc.tuple(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: anyText(8).map(encodeURIComponent) }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMERIC_QUERY) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_QUERY) },
      { weight: 1, arbitrary: anyText(15).map(encodeURIComponent) },
    ),
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 2, arbitrary: fc.array(pair, { minLength: 1, maxLength: 3 }).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`) },
  );
}

function authorization(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Bearer', 'Bearer ', 'Bearer qh_wrong-token', 'Basic YWRtaW46YWRtaW4=', `Bearer ${ctx.tokens.admin} extra`, `Token ${ctx.tokens.admin}`, 'Bearer null'),
    },
    { weight: 1, arbitrary: headerText(60).map((s) => `Bearer ${s}`) },
    // Mostly real tokens: then the broken body, path or query is what the service must refuse.
    { weight: 3, arbitrary: fc.constant(`Bearer ${ctx.tokens.admin}`) },
    { weight: 3, arbitrary: fc.constant(`bearer ${ctx.tokens.member}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${ctx.tokens.outsider}`) },
  );
}

const noise = fc.dictionary(fc.constantFrom('x-request-id', 'accept', 'mcp-session-id', 'last-event-id', 'x-forwarded-for', 'accept-language'), headerText(), { maxKeys: 2 });

// ---- requests ----------------------------------------------------------------------------------

/** One request against a route the app serves (sometimes with another method), or a path it does not serve. */
export function malformedRequest(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const api = ctx.routes.filter((r) => r.url.startsWith('/api/') || r.url.startsWith('/mcp'));
  const other = ctx.routes.filter((r) => !api.includes(r));
  const route = fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom(...api) },
    { weight: 2, arbitrary: fc.constantFrom(...other) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS).map((method): AppRoute => ({ method, url: '<random>' })) },
  );
  return route.chain((r) => {
    const method = fc.oneof({ weight: 6, arbitrary: fc.constant(r.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) });
    return method.chain((m) =>
      fc
        .record({
          path: r.url === '<random>' ? randomPath : pathFor(r, ctx),
          query: queryFor(r.url),
          auth: authorization(ctx),
          body: bodyFor(r, m, ctx),
          extraKey: fc.option(fc.constantFrom(...BAD_IDEMPOTENCY_KEYS, 'fz-key'), { freq: 5 }),
          noise,
        })
        .map(({ path, query, auth, body, extraKey, noise: extra }): FuzzRequest => {
          const headers: Record<string, string> = { ...extra };
          if (auth !== undefined) headers.authorization = auth;
          const key = body?.idempotencyKey ?? extraKey;
          if (key !== null && key !== undefined) headers['idempotency-key'] = key;
          const request: FuzzRequest = { method: m, path: path + query, headers };
          if (body) {
            request.body = body.body;
            headers['content-type'] = body.contentType;
          }
          return request;
        }),
    );
  });
}
