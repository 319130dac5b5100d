import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** Connects the official MCP client to the service's /mcp, with a bearer token when given. */
export async function connectMcp(baseUrl: string, token?: string): Promise<Client> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } });
  const client = new Client({ name: 'qhorus-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export interface ToolOutcome {
  isError: boolean;
  /** The structured content: the REST body on success, the REST error body on failure. */
  body: any;
  /** The first text content. */
  text: string;
}

/** Calls a tool and returns its outcome (tool errors are outcomes, not exceptions). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  const result = await client.callTool({ name, arguments: args });
  const content = (result.content ?? []) as { type: string; text?: string }[];
  return { isError: result.isError === true, body: result.structuredContent, text: content.find((c) => c.type === 'text')?.text ?? '' };
}

/** Calls a tool that must succeed, returning its structured content. */
export async function useTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const outcome = await callTool(client, name, args);
  if (outcome.isError) throw new Error(`${name} failed: ${outcome.text}`);
  return outcome.body;
}
