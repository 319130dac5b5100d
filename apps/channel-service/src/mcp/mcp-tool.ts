import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { Principal } from '../auth/principal';
import type { ToolArgs, ToolInputSchema } from './tool-args';

/** One MCP tool: what agents see (name, description, arguments) and what it does. */
export interface McpTool {
  name: string;
  description: string;
  input: ToolInputSchema;
  annotations?: ToolAnnotations;
  /** Listed to the admin only (a call by anyone else is still refused by the tool itself). */
  adminOnly?: boolean;
  /** Runs as the caller; returns the structured result (an object) or throws like REST does. `signal`: the request was cancelled. */
  run(args: ToolArgs, by: Principal, signal?: AbortSignal): Promise<object>;
}

/** A group of tools, provided by a Nest provider that holds the services they call. */
export interface McpToolGroup {
  tools(): McpTool[];
}
