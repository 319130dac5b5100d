import { createServer, IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** The HTTP plumbing the fake model APIs share: a loopback server, JSON bodies, a close that ends hanging calls. */

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (`null` if the body is not JSON). */
  readonly body: any;
  readonly rawBody: string;
  /**
   * Settles when the exchange ends: the answer was sent, or the client went away first (an
   * aborted request). With a `hang` reply only the client's abort (or close()) settles it.
   */
  readonly closed: Promise<void>;
}

export interface FakeJsonServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

export type JsonRoute = (req: IncomingMessage, res: ServerResponse, request: Omit<RecordedRequest, 'closed'> & { closed: Promise<void> }) => Promise<void>;

export async function startFakeJsonServer(route: JsonRoute, onHandlerError: (res: ServerResponse, error: unknown) => void): Promise<FakeJsonServer> {
  const server = createServer((req, res) => {
    void (async () => {
      const rawBody = await readBody(req);
      const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
      const path = (req.url ?? '/').split('?')[0];
      await route(req, res, { method: req.method ?? 'GET', path, headers: req.headers, body: parseJson(rawBody), rawBody, closed });
    })().catch((error: unknown) => onHandlerError(res, error));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => {
      // Idempotent, so an afterEach may close a server a test already closed.
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Hanging and keep-alive connections would otherwise keep close() (and jest) waiting.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...headers });
  res.end(payload);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
