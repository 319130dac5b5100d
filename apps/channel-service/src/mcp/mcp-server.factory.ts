import { Injectable, Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAdmin, Principal } from '../auth/principal';
import { JSON_RPC_ERRORS } from '../common/json-rpc-error';
import { ChannelResources } from './channel-resources';
import { McpTool } from './mcp-tool';
import { JsonRpcMethodError } from './json-rpc-envelope';
import { inToolArguments, ToolArgs, withIntegerArgs } from './tool-args';
import { toolError, toolResult } from './tool-result';
import { AgentTools } from './tools/agent.tools';
import { ChannelTools } from './tools/channel.tools';
import { ContextTools } from './tools/context.tools';
import { MessageTools } from './tools/message.tools';
import { SearchTools } from './tools/search.tools';
import { SummaryTools } from './tools/summary.tools';
import { ThreadTools } from './tools/thread.tools';

export const MCP_SERVER_INFO = { name: 'qhorus', version: '0.1.0' };

/** Told to every client at initialisation: the order in which an agent should use the tools. */
export const MCP_INSTRUCTIONS =
  'Qhorus: typed messages in named channels, each with a self-maintaining summary. To join a channel: list_channels, ' +
  'then get_channel_summary (state so far), then check_messages after_seq=<coversThroughSeq> for what is newer, or ' +
  'get_channel_context for a ready-made prompt within a token budget. Post with send_message; answer a QUERY or ' +
  'COMMAND with RESPONSE and its correlation_id. check_inbox lists the requests waiting for you across channels; ' +
  'list_threads and get_thread follow one request; search_messages finds where something was said. Each channel\'s summary and context are also resources ' +
  '(qhorus://channels/{name}/summary, qhorus://channels/{name}/context). Instead of polling, call wait_for_messages: ' +
  'with correlation_id=<your request\'s correlation id> to wait for its answer, with addressed_to_me=true to wait for work ' +
  'sent to you; mark_read records how far you have read. ' +
  'An agent that is not running cannot wait: register a webhook over REST (POST /api/v1/webhooks, events ' +
  'message.addressed, message.posted, summary.updated, thread.closed; signed per Standard Webhooks, retried for a day) ' +
  'or with the CLI (qhorus webhook add URL), or have an idle hook or cron job run `qhorus inbox --wait SECONDS`, ' +
  'which returns as soon as something is owed to you.';

/**
 * Builds one MCP server for one request, bound to the caller: the transport is stateless, so
 * any instance can serve any call. The tools are built once; only the binding is per request.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('McpTools');
  private readonly tools: McpTool[];
  private readonly byName: ReadonlyMap<string, McpTool>;

  constructor(
    agents: AgentTools,
    channels: ChannelTools,
    messages: MessageTools,
    summaries: SummaryTools,
    context: ContextTools,
    threads: ThreadTools,
    search: SearchTools,
    private readonly resources: ChannelResources,
  ) {
    this.tools = [agents, channels, messages, summaries, context, threads, search].flatMap((group) => group.tools());
    this.byName = new Map(this.tools.map((tool) => [tool.name, tool]));
  }

  /** `cancelled`: aborted when the client cancels this POST's call from another POST (see McpCancellations). */
  create(by: Principal, cancelled?: AbortSignal): McpServer {
    const server = new McpServer(MCP_SERVER_INFO, { instructions: MCP_INSTRUCTIONS });
    // Tools through the SDK's own request handlers, not McpServer.registerTool: the schemas are
    // sent exactly as written (portable, no $schema, no per-tool execution block) and the list
    // depends on the caller (the admin's tools for the admin only).
    server.server.registerCapabilities({ tools: {} });
    const listed = this.tools.filter((tool) => !tool.adminOnly || isAdmin(by));
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: listed.map(({ name, description, input, annotations }) => ({ name, description, inputSchema: input, annotations })),
    }));
    server.server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const tool = this.byName.get(request.params.name);
      if (!tool) throw new JsonRpcMethodError(JSON_RPC_ERRORS.invalidParams, `Unknown tool: ${request.params.name}`);
      return this.call(tool, request.params.arguments ?? {}, by, [extra.signal, cancelled]);
    });
    this.resources.register(server, by);
    return server;
  }

  private async call(tool: McpTool, args: ToolArgs, by: Principal, signals: (AbortSignal | undefined)[]): Promise<CallToolResult> {
    try {
      const given = signals.filter((s): s is AbortSignal => s !== undefined);
      const signal = given.length > 0 ? AbortSignal.any(given) : undefined;
      return toolResult(await inToolArguments(() => tool.run(withIntegerArgs(tool.input, args), by, signal)));
    } catch (error) {
      return toolError(error, this.logger);
    }
  }
}
