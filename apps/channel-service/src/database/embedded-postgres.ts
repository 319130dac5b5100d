import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Logger } from '@nestjs/common';
import { accessSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { lock } from 'proper-lockfile';
import { StartupError } from '../config/startup-error';

/** Postgres's conventional socket file name; `pg` derives it from host (a directory) and port. */
const SOCKET_PORT = 5432;
/** How often `whenIdle` looks again; the server notices a closed client within an event-loop turn or two. */
const IDLE_POLL_MS = 5;
/** A client that has not gone after this long is not going to: fail instead of waiting for ever. */
const IDLE_TIMEOUT_MS = 5_000;
/** The data dir's lock (a directory, proper-lockfile's mkdir strategy), refreshed while this process runs. */
const LOCK_NAME = 'qhorus.lock';
/** Beside the lock: the pid holding it, so a lock left by a dead process is taken over at once. */
const LOCK_PID_FILE = 'qhorus.lock.pid';
/** A lock not refreshed for this long belongs to a process that died: the next start takes it over. */
const LOCK_STALE_MS = 30_000;
const LOCK_REFRESH_MS = 5_000;

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
    private readonly unlock: () => Promise<void>,
  ) {}

  /**
   * Opens the database under `dataDir` (QHORUS_DATA_DIR), for this process only: PGlite is one
   * process's, and a second one on the same files would run its own copy and overwrite the first's
   * writes. So the dir is locked while this runs, and a second start on it fails naming the dir.
   */
  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const dir = resolve(dataDir);
    const pgDir = join(dir, 'pg');
    try {
      mkdirSync(pgDir, { recursive: true });
      accessSync(dir, constants.W_OK);
    } catch (err) {
      throw new StartupError(`QHORUS_DATA_DIR ${dir} cannot hold the embedded database: ${(err as Error).message}`);
    }
    const unlock = await lockDataDir(dir);
    let db: PGlite;
    try {
      db = await PGlite.create(pgDir);
    } catch (err) {
      await unlock();
      throw err;
    }
    // A short path under tmp: Unix socket paths are limited to ~107 bytes.
    const socketDir = mkdtempSync(join(tmpdir(), 'qhorus-pg-'));
    const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`), maxConnections: 1 });
    await server.start();
    return new EmbeddedPostgres(db, server, socketDir, unlock);
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
    await this.unlock();
  }
}

/**
 * Takes the data dir's lock, or fails naming the dir when another live process holds it. A lock
 * left by a process that is gone (killed, crashed) is taken over at once: its pid is written next
 * to it, so a restart does not wait LOCK_STALE_MS.
 */
async function lockDataDir(dir: string, mayTakeOver = true): Promise<() => Promise<void>> {
  const pidFile = join(dir, LOCK_PID_FILE);
  try {
    const release = await tryLock(dir);
    writeFileSync(pidFile, String(process.pid));
    return async () => {
      rmSync(pidFile, { force: true });
      await release();
    };
  } catch (err) {
    if ((err as { code?: string }).code !== 'ELOCKED') throw new StartupError(`QHORUS_DATA_DIR ${dir} cannot be locked: ${(err as Error).message}`);
    if (mayTakeOver && holderIsGone(pidFile)) {
      rmSync(join(dir, LOCK_NAME), { recursive: true, force: true });
      return lockDataDir(dir, false);
    }
    throw new StartupError(
      `QHORUS_DATA_DIR ${dir} is in use by another Qhorus process (the embedded database is one process's): stop that one, or give this one its own QHORUS_DATA_DIR, or set DATABASE_URL to share a Postgres`,
    );
  }
}

/** Whether the pid that wrote `pidFile` no longer runs on this machine (no file: unknown, so not gone). */
function holderIsGone(pidFile: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as { code?: string }).code === 'ESRCH';
  }
}

function tryLock(dir: string): Promise<() => Promise<void>> {
  const logger = new Logger(EmbeddedPostgres.name);
  return lock(dir, {
    lockfilePath: join(dir, LOCK_NAME),
    stale: LOCK_STALE_MS,
    update: LOCK_REFRESH_MS,
    // Another process took the dir (this one stalled past LOCK_STALE_MS): stop before two write it.
    onCompromised: (err) => {
      logger.fatal({ dir, err: err.message }, 'lost the lock on QHORUS_DATA_DIR; stopping before another process writes the same database');
      process.exit(1);
    },
  });
}
