import type { OpenAPIObject, OperationObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf } from './error-responses';

export const MCP_OPERATION_ID = 'McpController_handle';
/** GET and DELETE /mcp: stateless, they answer 405 and nothing else. */
const MCP_NOT_ALLOWED_OPERATION_IDS: ReadonlySet<string> = new Set(['McpController_getNotAllowed', 'McpController_deleteNotAllowed']);
export const JSON_RPC_REQUEST_SCHEMA = 'JsonRpcRequest';
/** The answer's schema, from mcp/dto/json-rpc.response.ts. */
const JSON_RPC_RESPONSE_SCHEMA = 'JsonRpcResponse';

/** A JSON-RPC 2.0 request or notification, as POST /mcp takes it (the MCP method's params are MCP's). */
const jsonRpcRequest: SchemaObject = {
  type: 'object',
  description: 'A JSON-RPC 2.0 request (with `id`) or notification (without). Speak MCP with an MCP client; `tools/list` names the tools.',
  required: ['jsonrpc', 'method'],
  additionalProperties: false,
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { description: 'A string or an integer; absent for a notification', oneOf: [{ type: 'string' }, { type: 'integer' }] },
    method: { type: 'string', minLength: 1, example: 'tools/list' },
    params: { type: 'object', additionalProperties: true },
  },
};

/**
 * POST /mcp reads its body itself (the MCP transport does), so no DTO describes it: this states
 * the JSON-RPC request it takes, that the request must accept JSON and SSE answers (406
 * otherwise), and the 202 a notification gets. GET and DELETE /mcp list their 405, no success.
 */
export function documentMcpOperation(document: OpenAPIObject): void {
  // `nest build`'s swagger plugin gives a handler a 200 by its return type (void here): GET and
  // DELETE never send it.
  for (const { operation } of operationsOf(document).filter((o) => MCP_NOT_ALLOWED_OPERATION_IDS.has(o.operation.operationId ?? ''))) {
    for (const status of Object.keys(operation.responses).filter((s) => s.startsWith('2'))) delete operation.responses[status];
  }
  const found = operationsOf(document).find(({ operation }) => operation.operationId === MCP_OPERATION_ID);
  if (!found) return;
  const schemas = ((document.components ??= {}).schemas ??= {});
  schemas[JSON_RPC_REQUEST_SCHEMA] = jsonRpcRequest;
  // The answer echoes the request's id, a string or an integer (null when the request had none readable).
  const answer = schemas[JSON_RPC_RESPONSE_SCHEMA] as SchemaObject | undefined;
  if (answer?.properties) answer.properties.id = { ...jsonRpcRequest.properties!.id, nullable: true };
  const operation: OperationObject = found.operation;
  operation.requestBody = {
    required: true,
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${JSON_RPC_REQUEST_SCHEMA}` }, example: { jsonrpc: '2.0', id: 1, method: 'tools/list' } } },
  };
  operation.parameters = [
    ...(operation.parameters ?? []),
    { name: 'Accept', in: 'header', required: true, description: 'Must list both application/json and text/event-stream (406 otherwise)', schema: { type: 'string', example: 'application/json, text/event-stream' } },
  ];
  operation.responses['202'] = { description: 'A notification (no id): accepted, no body' };
}
