import { ClientRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { JSON_RPC_ERRORS, jsonRpcError, JsonRpcErrorBody } from '../common/json-rpc-error';

/** The MCP methods this server answers; another method is the SDK's "method not found", whatever its params. */
const SERVED_METHODS: ReadonlySet<string> = new Set(['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list']);

/** The SDK's own request schemas (the ones its handlers parse with), by method. */
const REQUEST_SCHEMAS = new Map(
  ClientRequestSchema.options.filter((schema) => SERVED_METHODS.has(schema.shape.method.value)).map((schema) => [schema.shape.method.value as string, schema]),
);

interface JsonRpcRequest {
  method: string;
  id: string | number;
}

function isRequest(body: unknown): body is JsonRpcRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const { method, id } = body as Record<string, unknown>;
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}

/**
 * The answer to a single JSON-RPC request whose params the SDK would refuse, or null. The SDK
 * parses params inside its handler and reports a failure as -32603 (internal error) with the
 * raw issue list as its message: a client's mistake would read as the server's. This answers
 * -32602 (invalid params) naming each bad field, with the same schemas, before the SDK runs.
 */
export function invalidParamsAnswer(body: unknown): JsonRpcErrorBody | null {
  if (!isRequest(body)) return null;
  const parsed = REQUEST_SCHEMAS.get(body.method)?.safeParse(body);
  if (parsed === undefined || parsed.success) return null;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(request)'}: ${issue.message}`);
  return jsonRpcError(JSON_RPC_ERRORS.invalidParams, `Invalid params: ${problems.join('; ')}`, body.id);
}
