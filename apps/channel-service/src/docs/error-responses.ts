import type { OpenAPIObject, OperationObject, ParameterObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { API_ERROR_SCHEMA } from './api-error.schema';
import { RouteAccess } from './route-access';
import type { RouteDtos } from './route-dtos';

export const BEARER_SCHEME = 'bearer';

/** What each error status means in this API (DESIGN §6). */
export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input: the message names the problem and `details` lists every bad field',
  401: 'Missing, unknown or revoked bearer token (the answer carries `WWW-Authenticate: Bearer`)',
  403: 'Not allowed: the admin token is needed, /mcp was called by a Host or Origin that is not the service (QHORUS_ALLOWED_HOSTS), a body `sender` is not the caller, a quota is reached (QHORUS_MAX_CHANNELS_PER_AGENT) or the summariser policy forbids the choice (QHORUS_MODEL_SUMMARISER_POLICY)',
  404: 'No such channel (or agent), or a private channel the caller is not a member of',
  406: 'The request does not accept both application/json and text/event-stream (MCP Streamable HTTP)',
  409: 'Conflict: the name is taken, the version moved on, an Idempotency-Key was reused with another body, or the channel is archived (read-only)',
  413: 'The body is over the request limit (QHORUS_BODY_LIMIT_BYTES), the content over QHORUS_MAX_CONTENT_BYTES, or the metadata over QHORUS_MAX_METADATA_BYTES',
  415: 'The body is not JSON (Content-Type application/json), is not UTF-8, or has a Content-Encoding',
  429: 'A limit was reached (per-agent rate, failed authentications per address, event streams per agent): the message names it; retry after the `Retry-After` header',
  503: 'Postgres is unreachable: retry shortly (retry a post with the same Idempotency-Key: it is never stored twice)',
};

/** Errors particular to one operation, beyond those that follow from its shape (body, query, path, access). */
export const OPERATION_ERRORS: Record<string, number[]> = {
  AgentsController_register: [409],
  McpController_handle: [403, 406],
  McpController_getNotAllowed: [403],
  McpController_deleteNotAllowed: [403],
  AgentsController_revoke: [404],
  AgentsController_rotate: [404],
  ChannelsController_create: [403, 409],
  EventsController_stream: [429],
  InboxController_inbox: [429],
  ChannelsController_update: [403],
  MessagesController_post: [403, 409, 429],
  SearchController_search: [404],
  MessagesController_postBatch: [403, 409],
  SummaryController_override: [409],
  // Data lifecycle (issue 29): archive is the creator's or the admin's; an archived channel takes no post or summary job.
  ChannelArchiveController_archiveChannel: [403],
  ChannelArchiveController_unarchiveChannel: [403],
  SummaryController_refresh: [409],
  // Data lifecycle (DESIGN §10): the sender, the creator or the admin only
  LifecycleController_redact: [403],
  LifecycleController_rebuild: [403],
  LifecycleController_remove: [403],
  WebhooksController_create: [403],
  WebhooksController_get: [404],
  WebhooksController_delete: [404],
  WebhooksController_test: [404, 409],
  WebhooksController_deliveries: [404],
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every operation of the document with its path. */
export function operationsOf(document: OpenAPIObject): { path: string; method: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] as OperationObject })),
  );
}

/** Methods whose requests may carry a body: the body parser runs (400 bad JSON, 413 too big, 415 not JSON), whether the handler reads one or not. */
const BODY_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch']);

function errorStatuses(path: string, method: string, op: OperationObject, access: RouteAccess, dtos: RouteDtos | undefined): number[] {
  const statuses = new Set<number>();
  const params = (op.parameters ?? []) as ParameterObject[];
  const takesBody = BODY_METHODS.has(method);
  // Values checked before the handler (a query or path value that cannot be stored, a header read by name) or by its pipes.
  if (takesBody || dtos?.readsQuery || params.length > 0) statuses.add(400);
  if (!access.public) statuses.add(401);
  if (access.adminOnly) statuses.add(403);
  if (/\{[^}]+\}/.test(path)) statuses.add(404);
  if (takesBody) statuses.add(413).add(415);
  for (const s of OPERATION_ERRORS[op.operationId ?? ''] ?? []) statuses.add(s);
  // Failed authentications per address and the per-agent rate: on every route that authenticates.
  if (!access.public) statuses.add(429).add(503);
  return [...statuses].sort();
}

/**
 * States security and the error answers of every operation: bearer auth unless the handler is
 * @Public(), and the `ApiError` shape for each error status that follows from the route's shape
 * and access (a body or query → 400, a channel in the path → 404, …). Explicit responses win.
 */
export function documentErrorsAndSecurity(document: OpenAPIObject, accessById: Map<string, RouteAccess>, dtosById: Map<string, RouteDtos> = new Map()): void {
  for (const { path, method, operation } of operationsOf(document)) {
    const access = accessById.get(operation.operationId ?? '') ?? { public: false, adminOnly: false };
    operation.security = access.public ? [] : [{ [BEARER_SCHEME]: [] }];
    for (const status of errorStatuses(path, method, operation, access, dtosById.get(operation.operationId ?? ''))) {
      const existing = operation.responses[status] as { description?: string; content?: unknown } | undefined;
      operation.responses[status] = {
        description: existing?.description ?? ERROR_DESCRIPTIONS[status],
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${API_ERROR_SCHEMA}` } } },
      };
    }
  }
}
