import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { JSON_RPC_ERRORS, jsonRpcError, JsonRpcErrorBody } from '../common/json-rpc-error';

/**
 * An error a request handler throws to answer with a JSON-RPC error: `code` and a plain
 * `message`. The SDK's McpError puts "MCP error <code>: " into its message, which the SDK then
 * sends as it is, and the client adds the prefix again.
 */
export class JsonRpcMethodError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const SDK_PREFIX = /^MCP error -?\d+: /;

/** An outgoing JSON-RPC error without the SDK's "MCP error <code>: " prefix (the client adds it once). */
export function withoutSdkPrefix(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || !SDK_PREFIX.test(message.error.message)) return message;
  return { ...message, error: { ...message.error, message: message.error.message.replace(SDK_PREFIX, '') } };
}

function idOf(value: unknown): string | number | null {
  if (value === null || typeof value !== 'object') return null;
  const { id } = value as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** What makes one element not a JSON-RPC 2.0 message, in words, or null when it is one. */
function envelopeProblem(value: unknown): string | null {
  if (JSONRPCMessageSchema.safeParse(value).success) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'a JSON-RPC message is an object';
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if ('method' in message && typeof message.method !== 'string') return '"method" must be a string';
  if ('id' in message && idOf(message) === null) return '"id" must be a string or a number';
  if (!('method' in message)) return 'a request needs "method"';
  return 'not a JSON-RPC 2.0 request, notification or response';
}

const invalidRequest = (problem: string, id: string | number | null) => jsonRpcError(JSON_RPC_ERRORS.invalidRequest, `Invalid Request: ${problem}`, id);

/**
 * The answer to a body that is JSON but not JSON-RPC 2.0, or null when it is fine (JSON-RPC 2.0
 * §5.1 and §6): an invalid message is -32600 Invalid Request (the SDK says -32700, a parse error,
 * which is for text that is not JSON); an empty batch is one Invalid Request error. A batch with
 * invalid elements is refused whole, one error per invalid element; none of it runs.
 */
export function invalidEnvelopeAnswer(body: unknown): JsonRpcErrorBody | JsonRpcErrorBody[] | null {
  if (Array.isArray(body)) {
    if (body.length === 0) return invalidRequest('an empty batch', null);
    const errors = body.flatMap((element) => {
      const problem = envelopeProblem(element);
      return problem === null ? [] : [invalidRequest(problem, idOf(element))];
    });
    return errors.length > 0 ? errors : null;
  }
  const problem = envelopeProblem(body);
  return problem === null ? null : invalidRequest(problem, idOf(body));
}
