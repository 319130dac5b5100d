import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { join } from 'node:path';

/**
 * The dashboard's files: next to this module in the sources (tests) and in `dist` alike,
 * since `nest build` copies `dashboard/public` as an asset (nest-cli.json).
 */
export const DASHBOARD_ROOT = join(__dirname, 'public');

/**
 * The page and its script may only talk to this origin, and only load their own files: the
 * token lives in sessionStorage, so no third-party script or injected markup may ever run.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

type StaticOptions = Parameters<NestFastifyApplication['useStaticAssets']>[0];

function setDashboardHeaders(reply: { header(name: string, value: string): unknown }): void {
  reply.header('content-security-policy', DASHBOARD_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
}

/**
 * Serves the dashboard (plain HTML, CSS and JS) at `/`. The files themselves are public, like
 * any login page; every piece of data they show is fetched with the operator's bearer token.
 */
export function setupDashboard(app: NestFastifyApplication): void {
  app.useStaticAssets({
    root: DASHBOARD_ROOT,
    prefix: '/',
    wildcard: false, // one route per file: unknown paths fall through to the API's JSON 404
    index: ['index.html'],
    decorateReply: false, // Swagger UI registers @fastify/static too; only one may decorate
    // @fastify/static 10 hands the Fastify reply here; Nest's typing still says a raw response.
    setHeaders: setDashboardHeaders as unknown as StaticOptions['setHeaders'],
  });
}
