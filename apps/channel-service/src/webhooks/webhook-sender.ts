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

/** A lookup that answers the checked address and nothing else: the socket connects where the guard looked. */
function pinnedLookup(target: CheckedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

/**
 * POSTs a signed payload to the checked target: a fresh connection (no pooled socket from an
 * earlier resolution), redirects not followed (a 3xx is a failure like any non-2xx), the answer
 * read to at most `maxResponseBytes` and dropped, the whole exchange within `timeoutMs`.
 */
export function sendWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, options: SendOptions): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, error, durationMs: elapsed() });
    };
    const req = client.request(target.url, {
      method: 'POST',
      agent: false,
      lookup: pinnedLookup(target),
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      signal: options.signal,
    });
    const timer = setTimeout(() => {
      finish(null, `timed out after ${options.timeoutMs} ms`);
      req.destroy();
    }, options.timeoutMs);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const error = status >= 200 && status < 300 ? null : `HTTP ${status}`;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > options.maxResponseBytes) {
          res.destroy();
          finish(status, error);
        }
      });
      res.on('end', () => finish(status, error));
      res.on('error', () => finish(status, error));
      res.on('close', () => finish(status, error));
    });
    req.on('error', (err: NodeJS.ErrnoException) => finish(null, err.code ?? err.message));
    req.end(body);
  });
}
