import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { isDatabaseUnavailable, rejectedInputReason } from './database-errors';
import { InvalidJsonBodyException } from './json-body-parser';
import { JSON_RPC_ERRORS, jsonRpcError, JsonRpcErrorBody } from './json-rpc-error';

/** The one error shape of the API: `{statusCode, error, message, details?}`. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  details?: unknown;
}

export function errorBody(statusCode: number, message: string, details?: unknown): ApiErrorBody {
  const body: ApiErrorBody = { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
  if (details !== undefined) body.details = details;
  return body;
}

/** Normalises any thrown error into the API error shape; unexpected ones are logged with context. */
export function toApiError(exception: unknown, logger?: Logger): ApiErrorBody {
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'string') return errorBody(status, response);
    const r = response as { message?: unknown; details?: unknown };
    const message = Array.isArray(r.message) ? r.message.join('; ') : String(r.message ?? exception.message);
    return errorBody(status, message, r.details);
  }
  const fastifyError = exception as { statusCode?: number; message?: string; code?: string };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return errorBody(fastifyError.statusCode, fastifyError.message ?? 'Bad request');
  }
  const rejected = rejectedInputReason(exception);
  if (rejected) return errorBody(HttpStatus.BAD_REQUEST, `Invalid request: ${rejected}`);
  if (isDatabaseUnavailable(exception)) {
    // Refused connections write nothing; a query that timed out in a partition may still commit
    // when it heals, which is what the Idempotency-Key on posts is for.
    return errorBody(HttpStatus.SERVICE_UNAVAILABLE, 'The database is unreachable; retry shortly (retry a post with the same Idempotency-Key)');
  }
  logger?.error({ err: exception }, 'unhandled error');
  return errorBody(HttpStatus.INTERNAL_SERVER_ERROR, 'Internal server error');
}

/**
 * A body the JSON-RPC route could not parse is JSON-RPC's own parse error (-32700, HTTP 400), as
 * its clients expect. Its other errors before the handler (auth, limits) keep the API's shape,
 * whose `statusCode` the official client shows (it prints the body, not the status).
 */
function jsonRpcParseError(exception: unknown, body: ApiErrorBody): JsonRpcErrorBody | null {
  return exception instanceof InvalidJsonBodyException ? jsonRpcError(JSON_RPC_ERRORS.parseError, `Parse error: ${body.message}`) : null;
}

@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ApiError');

  /** `jsonRpcPath`: the route whose clients speak JSON-RPC (MCP); see jsonRpcParseError. */
  constructor(private readonly jsonRpcPath?: string) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse();
    const body = toApiError(exception, this.logger);
    const headers = (exception as { headers?: Record<string, string> })?.headers;
    if (headers) for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    // The route the request matched (not its URL as sent, which may spell the path otherwise: `/%6dcp`).
    const onJsonRpcRoute = this.jsonRpcPath !== undefined && http.getRequest<{ routeOptions?: { url?: string } }>()?.routeOptions?.url === this.jsonRpcPath;
    reply.status(body.statusCode).send((onJsonRpcRoute && jsonRpcParseError(exception, body)) || body);
  }
}
