import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Postgres's conventional socket file name; `pg` derives it from host (a directory) and port. */
const SOCKET_PORT = 5432;

/**
 * PGlite (Postgres compiled to WASM) served over a private Unix socket, so the app talks to it
 * through the same `pg` driver and SQL as to a real server. PGlite is single-connection: the
 * pool in front of it must have exactly one connection.
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

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
    rmSync(this.socketDir, { recursive: true, force: true });
  }
}
