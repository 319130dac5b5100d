import { errorBody } from './api-error.filter';

const METHOD_NOT_ALLOWED = 405;

/**
 * Route config (`@RouteConfig(ANSWERS_405_ONLY)` of @nestjs/platform-fastify) of a handler that
 * exists only to answer 405 itself (GET and DELETE /mcp): its method is not one the path serves,
 * so it is left out of every `Allow`.
 */
export const ANSWERS_405_ONLY = { answers405Only: true } as const;

/** The little of Fastify used here, typed structurally (see request-hardening.ts). */
interface RouteHost {
  addHook(name: 'onRoute', hook: (route: { url: string; method: string | string[]; config?: { answers405Only?: boolean } }) => void): unknown;
  addHook(
    name: 'onRequest',
    hook: (
      request: { is404?: boolean; url: string; method: string },
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Fastify's send() is generic over the route's reply type
      reply: { code(status: number): { header(name: string, value: string): { send(body: any): unknown } } },
      done: () => void,
    ) => void,
  ): unknown;
}

/** A route path (`/api/v1/channels/:name`) as a pattern matching the paths it serves. */
function pathPattern(url: string): RegExp {
  const parts = url.split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('/')}$`);
}

/**
 * A request whose path is served, but not with its method (`PUT /api/v1/channels`, `TRACE /mcp`),
 * is answered 405 with `Allow` listing the methods that path serves (RFC 9110 §15.5.6), in the
 * API's error shape, instead of a 404 saying the path does not exist. Paths nothing serves stay
 * 404. Wildcard routes are left out: they would make every path "served"; so are the methods of
 * handlers that answer 405 themselves (ANSWERS_405_ONLY).
 */
export function registerMethodNotAllowed(fastify: RouteHost): void {
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  fastify.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const entry = routes.get(route.url) ?? { pattern: pathPattern(route.url), methods: new Set<string>() };
    if (!route.config?.answers405Only) for (const method of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(method.toUpperCase());
    routes.set(route.url, entry);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done();
    const path = request.url.split('?')[0];
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) if (pattern.test(path)) methods.forEach((m) => allowed.add(m));
    if (allowed.size === 0) return done();
    const allow = [...allowed].sort().join(', ');
    reply
      .code(METHOD_NOT_ALLOWED)
      .header('allow', allow)
      .send(errorBody(METHOD_NOT_ALLOWED, `Method ${request.method} is not allowed on ${path}; it serves ${allow}`));
  });
}
