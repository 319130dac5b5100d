import { Command } from 'commander';
import { QhorusClient, QhorusError } from '@qhorus/client';

export const DEFAULT_URL = 'http://localhost:3000';

export interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

/** A usage or setup problem worth one line (no token, a route this client does not know). */
export class CliProblem extends Error {}

/** Ends the command with this exit code and nothing on stderr (an answer, not an error: `inbox --wait`'s 2). */
export class CliExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Where the service is and who the caller is: flags first, then QHORUS_URL / QHORUS_TOKEN. */
export function clientFor(command: Command, { needsToken = true } = {}): { client: QhorusClient; json: boolean; url: string } {
  const opts = command.optsWithGlobals<GlobalOptions>();
  const url = (opts.url ?? process.env.QHORUS_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  const token = opts.token ?? process.env.QHORUS_TOKEN;
  if (!/^https?:\/\/[^/]+/.test(url)) throw new CliProblem(`the URL ${JSON.stringify(url)} is not an http(s) URL (--url or QHORUS_URL)`);
  if (needsToken && !token) throw new CliProblem('no token: pass --token or set QHORUS_TOKEN (an agent token, or the admin token in .data/admin-token)');
  return { client: new QhorusClient({ baseUrl: url, token }), json: Boolean(opts.json), url };
}

/** `--json`: the API's own JSON, as it answered. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** One line saying what went wrong and what to check — never a stack trace. */
export function describeFailure(err: unknown, url: string): string {
  if (err instanceof QhorusError) {
    if (err.unreachable) return `cannot reach the Qhorus service at ${url}: ${err.message.replace(/^cannot reach \S+: /, '')} (check --url or QHORUS_URL)`;
    if (err.statusCode === 401) return `the token was rejected by ${url} (401): ${err.message} (check --token or QHORUS_TOKEN)`;
    if (err.statusCode === 404 && /Cannot (GET|POST|PUT|PATCH|DELETE) /.test(err.message)) return `${url} has no such route (404): is it a Qhorus service? (check --url or QHORUS_URL)`;
    return `${err.statusCode} ${err.error}: ${err.message}`;
  }
  if (err instanceof CliProblem) return err.message;
  return err instanceof Error ? err.message : String(err);
}
