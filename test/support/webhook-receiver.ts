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

/** Decides the status of each request (default 200); may delay its answer. */
export type Responder = (req: ReceivedWebhook, nth: number) => number | Promise<number>;

/** A real HTTP receiver on loopback that records every webhook it gets. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server: Server | null = null;
  private port = 0;

  constructor(public responder: Responder = () => 200) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Listens (on the given port, e.g. again after stop(), or a free one). */
  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
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
    const status = await this.responder(got, this.received.length);
    res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
  }
}
