import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { CheckedTarget } from './url-guard';

/** What one attempt came to: the status (null: no answer) and, when it failed, why — never the answer's body. */
export interface SendOutcome {
  status: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  maxResponseBytes: number;
  /** Aborted at shutdown: the attempt ends at once (its lease hands it to another worker). */
  signal?: AbortSignal;
}

/**
 * An idle kept-alive connection is closed after this: below the 5 s keep-alive timeout of Node's
 * and Apache's servers, so a receiver seldom closes one just as it is reused (Node also honours a
 * shorter `Keep-Alive: timeout=` the receiver announces).
 */
export const IDLE_CONNECTION_MS = 4_000;
/** Checked addresses with a pool of their own; past this, the least recently used pool's idle connections are closed. */
export const MAX_POOLED_ADDRESSES = 256;
/** Errors of a request written on a reused connection the receiver had already closed. */
const STALE_CONNECTION_ERRORS = new Set(['ECONNRESET', 'EPIPE']);

/** A lookup that answers the checked address and nothing else: the socket connects where the guard looked. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

/**
 * Keep-alive connections, one pool per checked address (and scheme). The guard resolves and
 * checks the host at every attempt; the attempt then takes a connection only from the pool of the
 * address it checked, so a kept connection is never reused once the name points elsewhere (within
 * a pool, Node's agent keys connections by host name and port as well, so TLS is never shared
 * across names either). Idle connections close after IDLE_CONNECTION_MS.
 */
export class ConnectionPools {
  private readonly pools = new Map<string, http.Agent>();

  constructor(private readonly maxConnectionsPerAddress: number) {}

  agentFor(target: CheckedTarget): http.Agent {
    const key = `${target.url.protocol}//${target.family === 6 ? `[${target.address}]` : target.address}`;
    const pooled = this.pools.get(key);
    if (pooled) {
      this.pools.delete(key); // most recently used last
      this.pools.set(key, pooled);
      return pooled;
    }
    const options: http.AgentOptions = {
      keepAlive: true,
      maxSockets: this.maxConnectionsPerAddress,
      maxFreeSockets: this.maxConnectionsPerAddress,
      timeout: IDLE_CONNECTION_MS,
      scheduling: 'lifo', // the most recently used connection: the least likely to have been closed
    };
    const agent = target.url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    this.pools.set(key, agent);
    if (this.pools.size > MAX_POOLED_ADDRESSES) {
      const [oldest, evicted] = this.pools.entries().next().value as [string, http.Agent];
      this.pools.delete(oldest);
      closeIdle(evicted); // an attempt still in flight on it ends as usual, its connection then idles out
    }
    return agent;
  }

  /** The number of pools (one per checked address in use). */
  get size(): number {
    return this.pools.size;
  }

  /** Closes every connection, idle or not (shutdown). */
  close(): void {
    for (const agent of this.pools.values()) agent.destroy();
    this.pools.clear();
  }
}

function closeIdle(agent: http.Agent): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

/**
 * POSTs a signed payload to the checked target, on a kept-alive connection to that address when
 * `agent` gives one (else a fresh connection): redirects not followed (a 3xx is a failure like any
 * non-2xx), the answer read to at most `maxResponseBytes` (a longer one closes the connection),
 * the whole exchange within `timeoutMs`. A request that fails on a reused connection before any
 * answer (the receiver had closed it) is sent once more on a fresh one, within the same timeout:
 * the same webhook-id, so at worst a duplicate the receiver drops.
 */
export function sendWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, options: SendOptions & { agent?: http.Agent }): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  const requestHeaders = { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
  return new Promise((resolve) => {
    let settled = false;
    let req: http.ClientRequest;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, error, durationMs: elapsed() });
    };
    const timer = setTimeout(() => {
      finish(null, `timed out after ${options.timeoutMs} ms`);
      req.destroy();
    }, options.timeoutMs);
    const send = (agent: http.Agent | false) => {
      let answered = false;
      req = client.request(target.url, { method: 'POST', agent, lookup: pinnedLookup(target), headers: requestHeaders, signal: options.signal });
      req.on('response', (res) => {
        answered = true;
        const status = res.statusCode ?? 0;
        const error = status >= 200 && status < 300 ? null : `HTTP ${status}`;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.maxResponseBytes) {
            res.destroy(); // and its connection: never reused with an answer left unread
            finish(status, error);
          }
        });
        res.on('end', () => finish(status, error));
        res.on('error', () => finish(status, error));
        res.on('close', () => finish(status, error));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (settled) return;
        if (!answered && agent && req.reusedSocket && STALE_CONNECTION_ERRORS.has(err.code ?? '')) return send(false);
        finish(null, err.code ?? err.message);
      });
      req.end(body);
    };
    send(options.agent ?? false);
  });
}
