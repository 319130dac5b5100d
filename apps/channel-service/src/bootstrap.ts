import { ConsoleLogger, RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { ApiErrorFilter } from './common/api-error.filter';
import { MAX_CORRELATION_ID_LENGTH } from './messages/dto/post-message.dto';
import { registerJsonBodyParser } from './common/json-body-parser';
import { registerMethodNotAllowed } from './common/method-not-allowed';
import { ownHostNames, registerMcpHostCheck } from './mcp/mcp-host-check';
import { frameworkErrorHandler, registerRequestRules, registerRouteBodyLimits } from './common/request-hardening';
import { apiValidationPipe } from './common/validation.pipe';
import { AppConfig } from './config/app-config';
import { trustProxySetting } from './config/trust-proxy';
import { setupDashboard } from './dashboard/dashboard';
import { setupOpenApi } from './docs/openapi';
import { registerRequestLog } from './logging/request-log';
import { echoRequestId, genRequestId } from './logging/request-id';

export const API_PREFIX = 'api/v1';
/** The batch post route, which has a body limit of its own. */
const BATCH_ROUTE_SUFFIX = '/messages/batch';
/** Routes served at the root, outside the API prefix (DESIGN §6). */
export const ROOT_ROUTES = ['health', 'health/live', 'metrics', 'mcp', 'docs', 'docs-json', '/'];
/** The MCP endpoint (a root route): its tools check their own arguments. */
const MCP_URL = '/mcp';
/**
 * Longest path parameter routed (Fastify's default is 100 characters): a correlation id of the
 * longest allowed length, percent-encoded (up to 4 UTF-8 bytes per character, 3 characters per byte).
 */
const MAX_PATH_PARAM_LENGTH = MAX_CORRELATION_ID_LENGTH * 4 * 3;

/** Builds the whole service (not yet listening). Used by main.ts, the e2e tests and embedders. */
export async function createApp(config: AppConfig, options: AppModuleOptions = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.QHORUS_BODY_LIMIT_BYTES,
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    trustProxy: trustProxySetting(config.QHORUS_TRUST_PROXY),
    frameworkErrors: frameworkErrorHandler,
    genReqId: genRequestId,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options), adapter, {
    bufferLogs: true,
    // Until pino takes over (below): what start-up logs, a failure to start included, is JSON too.
    logger: new ConsoleLogger({ json: true, colors: false }),
    // JSON bodies only, through registerJsonBodyParser (Nest's would replace it at init).
    bodyParser: false,
    // A provider that fails to start rejects here (Nest's default aborts the process): main.ts
    // reports a StartupError as one line naming the setting, a test sees the error.
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.setGlobalPrefix(API_PREFIX, {
    exclude: ROOT_ROUTES.map((path) => ({ path, method: RequestMethod.ALL })),
  });
  app.useGlobalPipes(apiValidationPipe());
  app.useGlobalFilters(new ApiErrorFilter(MCP_URL));
  registerJsonBodyParser(app.getHttpAdapter().getInstance());
  registerRequestRules(app.getHttpAdapter().getInstance(), config.QHORUS_JSON_MAX_DEPTH, MCP_URL);
  registerRouteBodyLimits(
    app.getHttpAdapter().getInstance(),
    { bytes: config.QHORUS_BODY_LIMIT_BYTES, knob: 'QHORUS_BODY_LIMIT_BYTES' },
    BATCH_ROUTE_SUFFIX,
    { bytes: config.QHORUS_BATCH_BODY_LIMIT_BYTES, knob: 'QHORUS_BATCH_BODY_LIMIT_BYTES' },
  );
  app.getHttpAdapter().getInstance().addHook('onRequest', echoRequestId);
  registerRequestLog(app.getHttpAdapter().getInstance());
  registerMethodNotAllowed(app.getHttpAdapter().getInstance());
  registerMcpHostCheck(app.getHttpAdapter().getInstance(), MCP_URL, ownHostNames(config.HOST), config.QHORUS_ALLOWED_HOSTS);
  setupOpenApi(app);
  setupDashboard(app);
  app.enableShutdownHooks();
  return app;
}
