import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** One span as OTLP/HTTP JSON carries it (ids are hex strings there). */
export interface CollectedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
}

/**
 * A minimal OpenTelemetry collector on loopback: takes `POST /v1/traces` in either OTLP/HTTP
 * encoding, keeps every raw body (to search for what must never be exported) and, for JSON,
 * the spans decoded.
 */
export interface OtlpCollector {
  readonly endpoint: string;
  readonly spans: CollectedSpan[];
  /** Every export request's body as received, with its content type. */
  readonly bodies: { contentType: string; body: Buffer }[];
  close(): Promise<void>;
}

function attributeValue(value: Record<string, any>): unknown {
  if ('stringValue' in value) return value.stringValue;
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return value.doubleValue;
  if ('boolValue' in value) return value.boolValue;
  if ('arrayValue' in value) return (value.arrayValue.values ?? []).map(attributeValue);
  return value;
}

function attributesOf(list: { key: string; value: Record<string, any> }[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map((a) => [a.key, attributeValue(a.value)]));
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const bodies: { contentType: string; body: Buffer }[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const contentType = String(req.headers['content-type'] ?? '');
    bodies.push({ contentType, body });
    if (req.url === '/v1/traces' && contentType.includes('json')) {
      const payload = JSON.parse(body.toString('utf8'));
      for (const resource of payload.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const s of scope.spans ?? []) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
              name: s.name,
              kind: s.kind,
              attributes: attributesOf(s.attributes),
              links: (s.links ?? []).map((l: { traceId: string; spanId: string }) => ({ traceId: l.traceId, spanId: l.spanId })),
            });
          }
        }
      }
    }
    res.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
    res.end(contentType.includes('json') ? '{}' : undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
