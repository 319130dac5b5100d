import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { Principal } from '../auth/principal';
import { ChannelsService } from '../channels/channels.service';
import { ProjectionService } from '../projection/projection.service';
import { SummaryService } from '../summary/summary.service';

export const SUMMARY_RESOURCE_TEMPLATE = 'qhorus://channels/{name}/summary';
export const CONTEXT_RESOURCE_TEMPLATE = 'qhorus://channels/{name}/context';

const summaryUri = (name: string) => SUMMARY_RESOURCE_TEMPLATE.replace('{name}', name);
const contextUri = (name: string) => CONTEXT_RESOURCE_TEMPLATE.replace('{name}', name);

/** The `{name}` variable of a matched template (the SDK gives a string or, for exploded variables, a list). */
function channelName(variables: Record<string, string | string[]>): string {
  const name = variables.name;
  return Array.isArray(name) ? (name[0] ?? '') : name;
}

/** MCP's code for a resource that does not exist (the spec's "Resource not found"; the SDK has no name for it). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A read the caller got wrong answers with MCP's error for it, not -32603 (internal error): an
 * unknown or unreadable channel is "resource not found", any other 4xx is invalid params.
 */
async function asResourceRead(read: () => Promise<ReadResourceResult>): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (err) {
    if (!(err instanceof HttpException) || err.getStatus() >= HttpStatus.INTERNAL_SERVER_ERROR) throw err;
    throw new McpError(err.getStatus() === HttpStatus.NOT_FOUND ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, err.message);
  }
}

/**
 * Each channel the caller may read, as two MCP resources: its summary (the JSON of
 * `get_channel_summary`) and its context (the JSON of `get_channel_context` with its defaults). Stateless like the tools: registered on the per-request server, bound to the
 * caller, listing and reading through the same services (so a private channel is neither listed
 * nor readable by an outsider: the read fails with the REST 404 message).
 */
@Injectable()
export class ChannelResources {
  constructor(
    private readonly channels: ChannelsService,
    private readonly summaries: SummaryService,
    private readonly projection: ProjectionService,
  ) {}

  register(server: McpServer, by: Principal): void {
    const list = (uri: (name: string) => string, what: string) => async () => ({
      resources: (await this.channels.list(by)).map((c) => ({ uri: uri(c.name), name: `${c.name} ${what}`, description: c.description ?? undefined })),
    });

    server.registerResource(
      'channel-summary',
      new ResourceTemplate(SUMMARY_RESOURCE_TEMPLATE, { list: list(summaryUri, 'summary') }),
      {
        title: 'Channel summary',
        description: 'The channel\'s current summary: state report text, annotations, coversThroughSeq, version (JSON).',
        mimeType: 'application/json',
      },
      (uri, variables) =>
        asResourceRead(async () => {
          const summary = await this.summaries.get(channelName(variables), by);
          return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(summary) }] };
        }),
    );

    server.registerResource(
      'channel-context',
      new ResourceTemplate(CONTEXT_RESOURCE_TEMPLATE, { list: list(contextUri, 'context') }),
      {
        title: 'Channel context',
        description: 'The channel as a ready-to-send prompt (the JSON of get_channel_context with its defaults): the summary, then the messages after it.',
        mimeType: 'application/json',
      },
      (uri, variables) =>
        asResourceRead(async () => {
          const context = await this.projection.context(channelName(variables), {}, by);
          return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(context) }] };
        }),
    );
  }
}
