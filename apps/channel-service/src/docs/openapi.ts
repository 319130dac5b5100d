import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { API_ERROR_SCHEMA, apiErrorSchema } from './api-error.schema';
import { BEARER_SCHEME, documentErrorsAndSecurity } from './error-responses';
import { documentExamples } from './examples';
import { operationId, routeAccessByOperationId } from './route-access';

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
 * \`nest build\`, the CLI plugin) describe them, plus security, the error answers and examples.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
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
  documentErrorsAndSecurity(document, routeAccessByOperationId(app));
  documentExamples(document);
  return document;
}

/** Serves Swagger UI at /docs and the document at /docs-json (built on first request). */
export function setupOpenApi(app: INestApplication): void {
  let document: OpenAPIObject | undefined;
  SwaggerModule.setup(DOCS_PATH, app, () => (document ??= buildOpenApiDocument(app)), {
    raw: ['json'],
    jsonDocumentUrl: DOCS_JSON_PATH,
    customSiteTitle: 'Qhorus API',
    swaggerOptions: { persistAuthorization: true },
  });
}
