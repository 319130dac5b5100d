import { createConnection, createServer, Server, Socket } from 'node:net';
import { freePort } from './free-port';

/**
 * A TCP proxy the test controls, to make a dependency (Postgres) unreachable without stopping
 * it: `cut()` resets every open connection and refuses new ones (the server is down);
 * `stall()` lets nothing through and tells nobody (a network partition); `restore()` ends
 * either, on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private stalled = false;
  /** Connections accepted during a stall, waiting for it to end. */
  private readonly held: Socket[] = [];

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
    if (this.stalled) {
      // The partition heals: traffic flows again on the connections that survived it.
      this.stalled = false;
      for (const socket of this.sockets) socket.resume();
      for (const client of this.held.splice(0)) this.pipe(client);
    }
    if (this.server) return;
    const server = createServer((client) => (this.stalled ? this.hold(client) : this.pipe(client)));
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
    for (const socket of [...this.sockets, ...this.held.splice(0)]) socket.resetAndDestroy();
    this.sockets.clear();
    this.stalled = false;
    if (server) await new Promise((r) => server.close(r));
  }

  /**
   * A network partition: connections stay open but nothing gets through, and new ones are
   * accepted and then left hanging. Nobody is told, so only timeouts can notice.
   */
  stall(): void {
    this.stalled = true;
    for (const socket of this.sockets) socket.pause();
  }

  async close(): Promise<void> {
    await this.cut();
  }

  private hold(client: Socket): void {
    this.held.push(client);
    client.on('error', () => undefined);
    client.on('close', () => {
      const at = this.held.indexOf(client);
      if (at >= 0) this.held.splice(at, 1);
    });
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
