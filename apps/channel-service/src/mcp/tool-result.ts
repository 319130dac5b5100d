import { Logger } from '@nestjs/common';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toApiError } from '../common/api-error.filter';

/** JSON round trip: Dates become ISO strings, undefined fields disappear, as in the REST body. */
const plainJson = (value: object): Record<string, unknown> => JSON.parse(JSON.stringify(value));

/** A tool's answer: the REST body as structured content, and the same JSON as text for clients that only read text. */
export function toolResult(value: object): CallToolResult {
  const structured = plainJson(value);
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

/**
 * A failed call as an MCP tool error (`isError: true`): the text is the REST error message and
 * the structured content the REST error body ({statusCode, error, message, details?}).
 */
export function toolError(error: unknown, logger: Logger): CallToolResult {
  const body = toApiError(error, logger);
  return { isError: true, content: [{ type: 'text', text: body.message }], structuredContent: plainJson(body) };
}
