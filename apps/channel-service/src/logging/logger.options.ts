import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { Options as HttpOptions } from 'pino-http';
import { AppConfig } from '../config/app-config';
import { logsEveryRequest } from './failed-request-log';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Never logged: credentials in headers and bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.token',
  '*.apiKey',
  '*.ANTHROPIC_API_KEY',
  '*.QHORUS_ADMIN_TOKEN',
];

/** Health probes and metric scrapes. */
const PROBE_PATH = /^\/(health(\/live)?|metrics)(\?|$)/;
const isProbe = (url: string | undefined): boolean => PROBE_PATH.test(url ?? '');

/** Structured JSON logs with a request id per request; secrets redacted. `destination`: stdout unless given (tests capture it). */
/** Every route, in Nest 11's path syntax (nestjs-pino's default '*' logs a legacy-route warning). */
const ALL_ROUTES = [{ path: '{*splat}', method: RequestMethod.ALL }];

export function loggerOptions(config: AppConfig, destination?: DestinationStream): Params {
  const options: HttpOptions = {
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    // The request id is Fastify's (logging/request-id.ts): pino-http logs the `req.id` it finds.
    // Probes and scrapes every few seconds would drown the log: successful ones are not logged.
    // (A 'silent' level rather than autoLogging.ignore, which pino-http did not honour here.)
    customLogLevel: (req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : isProbe(req.url) ? 'silent' : 'info',
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
    },
  };
  // Quieter than info, no per-request logger at all: see logsEveryRequest (failed-request-log.ts).
  const forRoutes = logsEveryRequest(config.LOG_LEVEL) ? ALL_ROUTES : [];
  return { pinoHttp: destination ? [options, destination] : options, forRoutes };
}
