/** JSON-RPC 2.0 error codes used outside a tool call (a tool's own errors are tool results). */
export const JSON_RPC_ERRORS = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  invalidParams: -32602,
  internalError: -32603,
  serverError: -32000,
});

export interface JsonRpcErrorBody {
  jsonrpc: '2.0';
  error: { code: number; message: string };
  id: string | number | null;
}

export function jsonRpcError(code: number, message: string, id: string | number | null = null): JsonRpcErrorBody {
  return { jsonrpc: '2.0', error: { code, message }, id };
}
