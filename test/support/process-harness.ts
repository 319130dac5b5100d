import { ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withTimeout } from '../../apps/channel-service/src/common/with-timeout';
import { ApiClient } from './http';
import { TEST_ADMIN_TOKEN } from './test-app';

/**
 * Runs the BUILT service (`node dist/…/main.js`) as child processes, so tests can send real
 * signals, run several instances side by side (QHORUS_ROLE=api|worker), and restart them.
 */

const ROOT = join(__dirname, '..', '..');
export const SERVICE_ENTRY = join(ROOT, 'dist/apps/channel-service/src/main.js');
/** What the build reads; the same list as scripts/start.js. */
const SOURCES = ['apps', 'libs', 'migrations', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
const BUILD_LOCK = join(ROOT, 'dist', '.e2e-build.lock');
const BUILD_TIMEOUT_MS = 300_000;
const LOCK_POLL_MS = 500;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 60_000;
/** Lines of a child's output kept for the failure message. */
const OUTPUT_LINES_KEPT = 400;

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), stat.mtimeMs);
}

function isBuildStale(): boolean {
  if (!existsSync(SERVICE_ENTRY)) return true;
  const built = statSync(SERVICE_ENTRY).mtimeMs;
  return SOURCES.some((s) => existsSync(join(ROOT, s)) && newestMtime(join(ROOT, s)) > built);
}

/**
 * Builds the service when dist is missing or older than a source. Several jest workers may ask
 * at once: a lock directory makes one of them build while the others wait for it.
 */
export async function ensureServiceBuilt(): Promise<void> {
  if (!isBuildStale()) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  const deadline = Date.now() + BUILD_TIMEOUT_MS;
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch {
      // A build killed half-way leaves its lock behind: past the build timeout it is abandoned.
      if (existsSync(BUILD_LOCK) && Date.now() - statSync(BUILD_LOCK).mtimeMs > BUILD_TIMEOUT_MS) rmSync(BUILD_LOCK, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another build (remove ${BUILD_LOCK} if stale)`);
      await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
      if (!isBuildStale()) return;
    }
  }
  try {
    if (!isBuildStale()) return;
    const started = Date.now();
    try {
      await promisify(execFile)('npx', ['nest', 'build'], { cwd: ROOT, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 });
    } catch (err) {
      // tsc still emits on type errors; only a missing or old entry point is fatal.
      if (!existsSync(SERVICE_ENTRY) || statSync(SERVICE_ENTRY).mtimeMs < started) {
        throw new Error(`nest build failed: ${(err as { stdout?: string }).stdout ?? ''}${(err as Error).message}`);
      }
    }
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One running service process. */
export class ServiceProcess {
  private readonly lines: string[] = [];
  private readonly exited: Promise<ExitStatus>;
  private exitStatus: ExitStatus | null = null;
  private url: string | null = null;
  private onListening: ((url: string) => void) | null = null;
  /** Resolves with the URL the service logs once it listens (it binds port 0: no port race). */
  readonly listening = new Promise<string>((resolve) => (this.onListening = resolve));

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exitStatus = { code, signal };
        resolve(this.exitStatus);
      }),
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      let partial = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop()!;
        for (const line of parts) this.record(line);
      });
    }
  }

  get pid(): number {
    return this.child.pid!;
  }

  get baseUrl(): string {
    if (!this.url) throw new Error(`${this.name} is not listening yet`);
    return this.url;
  }

  get hasExited(): boolean {
    return this.exitStatus !== null;
  }

  get admin(): ApiClient {
    return new ApiClient(this.baseUrl, TEST_ADMIN_TOKEN);
  }

  client(token?: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  /** The child's structured log lines (JSON parsed; other lines as `{ text }`). */
  logs(): Record<string, any>[] {
    return this.lines.map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return { text: line };
      }
    });
  }

  output(): string {
    return this.lines.join('\n');
  }

  /** Sends `signal` and waits for the process to exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = STOP_TIMEOUT_MS): Promise<ExitStatus> {
    if (!this.exitStatus) this.child.kill(signal);
    const timer = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${this.name} did not exit within ${timeoutMs} ms of ${signal}:\n${this.tail()}`)), timeoutMs).unref(),
    );
    return Promise.race([this.exited, timer]);
  }

  /** Last resort for afterAll: SIGKILL if still running. */
  async kill(): Promise<void> {
    if (!this.exitStatus) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  waitForExit(): Promise<ExitStatus> {
    return this.exited;
  }

  tail(lines = 40): string {
    return this.lines.slice(-lines).join('\n');
  }

  private record(line: string): void {
    if (!this.url && line.includes(LISTENING_MESSAGE)) {
      try {
        this.url = JSON.parse(line).url as string;
        this.onListening?.(this.url);
      } catch {
        // not the structured line: keep waiting
      }
    }
    this.lines.push(line);
    if (this.lines.length > OUTPUT_LINES_KEPT) this.lines.shift();
  }
}

export interface ServiceOptions {
  /** Shown in failure messages. */
  name: string;
  databaseUrl: string;
  redisUrl?: string;
  queuePrefix: string;
  role?: 'api' | 'worker' | 'all';
  /** More knobs (strings, as in a real environment). */
  env?: Record<string, string>;
}

/** The log line main.ts writes once the server listens; it carries the bound URL. */
const LISTENING_MESSAGE = 'Qhorus is listening';

/** Starts the built service with a clean environment and waits until it listens. */
export async function startServiceProcess(options: ServiceOptions): Promise<ServiceProcess> {
  await ensureServiceBuilt();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    DATABASE_URL: options.databaseUrl,
    QHORUS_QUEUE_PREFIX: options.queuePrefix,
    QHORUS_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    QHORUS_ROLE: options.role ?? 'all',
    QHORUS_JOB_BACKOFF_MS: '100',
    QHORUS_SWEEP_INTERVAL_MS: '500',
    HOST: '127.0.0.1',
    PORT: '0',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.env,
    // The harness learns the bound port from the info-level "listening" line.
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, [SERVICE_ENTRY], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const service = new ServiceProcess(options.name, child);
  try {
    await Promise.race([
      withTimeout(service.listening, START_TIMEOUT_MS, `${options.name} to listen`),
      service.waitForExit().then((status) => {
        throw new Error(`${options.name} exited during start-up (${JSON.stringify(status)})`);
      }),
    ]);
  } catch (err) {
    await service.kill();
    throw new Error(`${(err as Error).message}\n${service.tail()}`);
  }
  return service;
}

/** Starts several processes at once; if one fails, the others are killed before rethrowing. */
export async function startServiceProcesses(options: ServiceOptions[]): Promise<ServiceProcess[]> {
  const settled = await Promise.allSettled(options.map((o) => startServiceProcess(o)));
  const started = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((p) => p.kill()));
    throw failed.reason;
  }
  return started;
}
