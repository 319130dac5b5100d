import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { JSON_MAP } from '../../docs/schema-properties';

export class JsonRpcError {
  code: number;
  message: string;
}

/**
 * A JSON-RPC 2.0 answer of the MCP endpoint: `result` (the MCP result object of the method
 * called, e.g. a `tools/call` result) or `error`. Speak MCP with an MCP client, not this schema.
 */
export class JsonRpcResponse {
  @ApiProperty({ enum: ['2.0'] })
  jsonrpc: '2.0';
  @ApiProperty({ type: String, nullable: true, description: 'The request id (a string or a number)' })
  id: string | number | null;
  @ApiProperty({ ...JSON_MAP, selfRequired: false } as ApiPropertyOptions)
  result?: Record<string, unknown>;
  @ApiProperty({ type: () => JsonRpcError, required: false })
  error?: JsonRpcError;
}
