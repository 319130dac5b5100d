import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_ERROR_SCHEMA, apiErrorSchema } from './api-error.schema';
import { BEARER_SCHEME, documentErrorsAndSecurity } from './error-responses';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { documentExamples } from './examples';
import { documentIntegerNumbers } from './integer-numbers';
import { documentMcpOperation } from './mcp-operation';
import { documentRequestSchemas } from './request-schemas';
import { operationId, routeAccessByOperationId } from './route-access';
import { routeDtosByOperationId } from './route-dtos';

export const DOCS_PATH = 'docs';
export const DOCS_JSON_PATH = 'docs-json';
/** The version of the HTTP contract (the `/api/v1` prefix), not of the package. */
export const API_VERSION = '1';

const DESCRIPTION = `Qhorus: typed messages in named channels for multi-agent systems, each channel with a
self-maintaining summary slot. Every route needs \`Authorization: Bearer <token>\` (the admin
token, or an agent's from \`POST /api/v1/agents\`) except \`/health\`. Errors are
\`{statusCode, error, message, details?}\`.`;

/**
 * The OpenAPI document of the running app: routes and DTOs as the swagger scanner (and, in a
 * \`nest build\`, the CLI plugin) describe them; request bodies and queries derived from the
 * DTOs' validation rules (what the server checks, bounds set by this deployment's config
 * included); answers' numbers as integers; security, the error answers and examples.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  return buildCheckedOpenApiDocument(app).document;
}

/** The document and the validation rules it could not state (the mismatch test fails on any). */
export function buildCheckedOpenApiDocument(app: INestApplication): { document: OpenAPIObject; problems: string[] } {
  const config = new DocumentBuilder()
    .setTitle('Qhorus')
    .setDescription(DESCRIPTION)
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The admin token or an agent token' }, BEARER_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => operationId(controller, method),
  });
  document.components ??= {};
  document.components.schemas = { ...document.components.schemas, [API_ERROR_SCHEMA]: apiErrorSchema };
  const limits = app.get(RequestLimitsConfig);
  const dtos = routeDtosByOperationId(app);
  documentIntegerNumbers(document);
  const problems = documentRequestSchemas(document, dtos, (setting) => limits.bySetting[setting]);
  documentMcpOperation(document);
  documentErrorsAndSecurity(document, routeAccessByOperationId(app), dtos);
  documentExamples(document);
  return { document, problems };
}

/**
 * Headers of every /docs route: the page takes a token (Authorize), so it may not be framed
 * (clickjacking), and nothing is sniffed or sent as a referrer. No script policy: Swagger UI's
 * own page would need one written for it.
 */
const DOCS_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

interface RouteHost {
  addHook(name: 'onRoute', hook: (route: { url: string; onRequest?: unknown }) => void): unknown;
}
type HeaderReply = { header(name: string, value: string): unknown };

/** Adds DOCS_HEADERS to the routes registered under DOCS_PATH from now on (route hooks: other routes pay nothing). */
function secureDocsRoutes(fastify: RouteHost): void {
  const setHeaders = (_request: unknown, reply: HeaderReply, done: () => void) => {
    for (const [name, value] of Object.entries(DOCS_HEADERS)) reply.header(name, value);
    done();
  };
  fastify.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`/${DOCS_PATH}`)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...existing, setHeaders];
  });
}

/** Serves Swagger UI at /docs and the document at /docs-json (built on first request). */
export function setupOpenApi(app: INestApplication): void {
  secureDocsRoutes(app.getHttpAdapter().getInstance() as RouteHost);
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup(DOCS_PATH, app, () => (document ??= buildOpenApiDocument(app)), {
    raw: ['json'],
    jsonDocumentUrl: DOCS_JSON_PATH,
    customSiteTitle: 'Qhorus API',
    swaggerOptions: { persistAuthorization: true },
  });
}
