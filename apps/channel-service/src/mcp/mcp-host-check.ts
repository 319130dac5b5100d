import { hostname, networkInterfaces } from 'node:os';
import { errorBody } from '../common/api-error.filter';

const FORBIDDEN = 403;
/** QHORUS_ALLOWED_HOSTS entry that accepts any host (a deployment that checks hosts in front). */
const ANY_HOST = '*';
const UNSPECIFIED = new Set(['0.0.0.0', '::', '']);

/** The names the service answers to by itself: loopback, this machine's name and every address of its interfaces, the address it listens on. */
export function ownHostNames(listenHost: string): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '::1', hostname().toLowerCase()]);
  for (const addresses of Object.values(networkInterfaces())) for (const a of addresses ?? []) names.add(a.address.toLowerCase());
  if (!UNSPECIFIED.has(listenHost)) names.add(listenHost.toLowerCase());
  return names;
}

/** `example.com:3000` → `example.com`, `[::1]:3000` → `::1`; null when it names no host. */
export function hostOf(hostHeader: string): string | null {
  const value = hostHeader.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](:\d+)?$/.exec(value);
  if (bracketed) return bracketed[1];
  const plain = /^([^:\s/]+)(:\d+)?$/.exec(value);
  return plain ? plain[1] : null;
}

function originHost(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return null; // `null` (a sandboxed page), or not a URL
  }
}

interface HookHost {
  addHook(
    name: 'onRequest',
    hook: (
      request: { routeOptions?: { url?: string }; headers: Record<string, string | string[] | undefined> },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's send() is generic over the route's reply type
      reply: { code(status: number): { send(body: any): unknown } },
      done: () => void,
    ) => void,
  ): unknown;
}

/**
 * DNS rebinding protection for the MCP endpoint (the MCP transport spec requires it): a request to
 * `path` whose `Host`, or whose `Origin` when it sends one, names neither one of the service's own
 * addresses (ownHostNames) nor an entry of QHORUS_ALLOWED_HOSTS is refused with 403 before
 * anything else runs. A request without `Origin` (any client that is not a browser) is checked by
 * its `Host` alone.
 */
export function registerMcpHostCheck(fastify: HookHost, path: string, own: ReadonlySet<string>, allowedHosts: string): void {
  const extra = allowedHosts.split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  if (extra.includes(ANY_HOST)) return;
  const allowed = new Set([...own, ...extra.map((h) => hostOf(h) ?? h)]);
  fastify.addHook('onRequest', (request, reply, done) => {
    // The route it matched, not the URL as sent: `/%6dcp` is routed to /mcp too.
    if (request.routeOptions?.url !== path) return done();
    const host = String(request.headers.host ?? '');
    const origin = request.headers.origin;
    const refused =
      !allowed.has(hostOf(host) ?? '') ? `Host '${host}'` : origin !== undefined && !allowed.has(originHost(String(origin)) ?? '') ? `Origin '${String(origin)}'` : null;
    if (refused === null) return done();
    reply.code(FORBIDDEN).send(errorBody(FORBIDDEN, `${refused} is not one of this service's addresses; add the name to QHORUS_ALLOWED_HOSTS to accept it on ${path}`));
  });
}
