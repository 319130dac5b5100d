import { ChildProcess, spawn } from 'node:child_process';
import IORedis from 'ioredis';
import { freePort } from './free-port';
import { waitFor } from './http';

const REDIS_START_TIMEOUT_MS = 10_000;

/**
 * A private redis-server on a spare port, for tests that stop and restart Redis (never the
 * shared one). No persistence: a restart comes back empty, like a failed-over cache.
 */
export class RedisServer {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts (or restarts) the server on the same port and waits until it answers PING. */
  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: 'ignore',
    });
    this.child = child;
    child.once('exit', () => {
      if (this.child === child) this.child = null;
    });
    await waitFor(() => this.ping(), `redis-server on port ${this.port}`, REDIS_START_TIMEOUT_MS);
  }

  /** Kills the server (SIGKILL: an outage, not a polite shutdown) and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  private async ping(): Promise<boolean> {
    const client = new IORedis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  }
}
