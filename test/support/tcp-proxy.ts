import { createConnection, createServer, Server, Socket } from 'node:net';
import { freePort } from './free-port';

/**
 * A TCP proxy the test controls, to make a dependency (Postgres) unreachable without stopping
 * it: `cut()` drops every open connection and refuses new ones; `restore()` accepts again, on
 * the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(await freePort(), target);
    await proxy.restore();
    return proxy;
  }

  get connections(): number {
    return this.sockets.size / 2;
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.pipe(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Refuses new connections (ECONNREFUSED) and resets the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
    if (server) await new Promise((r) => server.close(r));
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private pipe(client: Socket): void {
    const upstream = createConnection(this.target);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.sockets.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  }
}
