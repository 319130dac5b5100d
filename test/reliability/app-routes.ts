import { NestFastifyApplication } from '@nestjs/platform-fastify';

export interface AppRoute {
  method: string;
  /** Fastify's path syntax: `/api/v1/channels/:name/messages`. */
  url: string;
}

/** Methods Fastify adds by itself for every GET route, or that only the CORS layer answers. */
const IMPLICIT_METHODS = new Set(['HEAD', 'OPTIONS']);

/**
 * Records every route the app registers (REST, MCP, health, docs, dashboard, …), so tests that
 * must cover "every endpoint" see the ones other features add too. Pass as `beforeListen`.
 */
export function routeRecorder(): { routes: AppRoute[]; beforeListen: (app: NestFastifyApplication) => void } {
  const routes: AppRoute[] = [];
  return {
    routes,
    beforeListen: (app) => {
      app.getHttpAdapter().getInstance().addHook('onRoute', (route: { method: string | string[]; url: string }) => {
        for (const method of [route.method].flat()) {
          if (IMPLICIT_METHODS.has(method)) continue;
          if (!routes.some((r) => r.method === method && r.url === route.url)) routes.push({ method, url: route.url });
        }
      });
    },
  };
}
