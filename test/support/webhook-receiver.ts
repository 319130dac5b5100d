import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** One request a receiver got: its headers and raw body (verify signatures over the raw bytes). */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  json: any;
  at: number;
  /** The sender's port on loopback (to find which process sent it). */
  remotePort: number;
}

/**
 * How a receiver answers one request: a status, or a status with headers (a redirect's
 * `location`), and a body that never ends (`endless`: chunks until the sender hangs up); or not
 * at all (`silent`: the request is left unanswered; `reset`: the connection is closed at once, as
 * a server does to a kept-alive connection it timed out).
 */
export type Answer = number | { status: number; headers?: Record<string, string>; endless?: boolean } | 'silent' | 'reset';

/** Decides the answer to each request (default 200); may delay it. */
export type Responder = (req: ReceivedWebhook, nth: number) => Answer | Promise<Answer>;

/** A real HTTP receiver on loopback that records every webhook it gets. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** TCP connections accepted so far (a sender that keeps its connection alive opens fewer). */
  connections = 0;
  private server: Server | null = null;
  private port = 0;

  constructor(
    public responder: Responder = () => 200,
    /** The loopback address it listens on (127.0.0.2 is another host at the same port). */
    readonly host = '127.0.0.1',
  ) {}

  get url(): string {
    return `http://${this.host}:${this.port}/hook`;
  }

  get listeningPort(): number {
    return this.port;
  }

  /** Listens (on the given port, e.g. again after stop(), or a free one). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((resolve) => this.server!.listen(port, this.host, resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The requests of one event type. */
  ofType(type: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.json?.type === type);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown = null;
    try {
      json = JSON.parse(body);
    } catch {
      // recorded as text
    }
    const got: ReceivedWebhook = { headers: req.headers as Record<string, string>, body, json, at: Date.now(), remotePort: req.socket.remotePort ?? 0 };
    this.received.push(got);
    const answer = await this.responder(got, this.received.length);
    if (answer === 'silent') return;
    if (answer === 'reset') return void req.socket.destroy();
    const { status, headers = {}, endless = false } = typeof answer === 'number' ? { status: answer } : answer;
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    if (!endless) return void res.end('ok');
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const more = () => {
      while (!res.destroyed && res.write(chunk));
    };
    res.on('drain', more);
    more();
  }
}
