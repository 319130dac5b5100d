import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Postgres's conventional socket file name; `pg` derives it from host (a directory) and port. */
const SOCKET_PORT = 5432;
/** How often `whenIdle` looks again; the server notices a closed client within an event-loop turn or two. */
const IDLE_POLL_MS = 5;
/** A client that has not gone after this long is not going to: fail instead of waiting for ever. */
const IDLE_TIMEOUT_MS = 5_000;

/**
 * PGlite (Postgres compiled to WASM) served over a private Unix socket, so the app talks to it
 * through the same `pg` driver and SQL as to a real server. PGlite is single-connection: one
 * client at a time (the migrations' data source, closed before the app's one-connection pool opens).
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    private readonly socketDir: string,
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const pgDir = resolve(dataDir, 'pg');
    mkdirSync(pgDir, { recursive: true });
    const db = await PGlite.create(pgDir);
    // A short path under tmp: Unix socket paths are limited to ~107 bytes.
    const socketDir = mkdtempSync(join(tmpdir(), 'qhorus-pg-'));
    const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 1 });
    await server.start();
    return new EmbeddedPostgres(db, server, socketDir);
  }

  get url(): string {
    return `postgres://postgres@localhost:${SOCKET_PORT}/postgres?host=${encodeURIComponent(this.socketDir)}`;
  }

  /**
   * Resolves once the server holds no client connection. A client that has closed its side is
   * still counted until the server has seen the close, and a new client arriving before that is
   * turned away ("Too many connections"): wait here between one client and the next.
   */
  async whenIdle(): Promise<void> {
    const deadline = Date.now() + IDLE_TIMEOUT_MS;
    while (this.server.getStats().activeConnections > 0) {
      if (Date.now() > deadline) throw new Error(`embedded Postgres still has a client after ${IDLE_TIMEOUT_MS} ms`);
      await sleep(IDLE_POLL_MS);
    }
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}
