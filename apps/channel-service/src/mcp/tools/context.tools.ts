import { Injectable } from '@nestjs/common';
import { CONTEXT_FORMATS } from '../../projection/context-format';
import { ContextQuery } from '../../projection/dto/context.query';
import { ProjectionService } from '../../projection/projection.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, optional, toDto, toolInput } from '../tool-args';

@Injectable()
export class ContextTools implements McpToolGroup {
  constructor(private readonly projection: ProjectionService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'get_channel_context',
        description:
          'The channel as a prompt within max_tokens: the summary, then newer messages (yours as assistant turns).',
        input: toolInput({
          channel: CHANNEL_ARG,
          viewer: optional({ type: 'string' }),
          keep_last: optional({ type: 'integer' }),
          max_tokens: optional({ type: 'integer' }),
          format: optional({ type: 'string', schema: { enum: CONTEXT_FORMATS } }),
        }),
        run: async (args, by) => {
          const channel = channelArg(args);
          const query = await toDto(ContextQuery, args, { viewer: 'viewer', keep_last: 'keepLast', max_tokens: 'maxTokens', format: 'format' }, ['channel']);
          return this.projection.context(channel, query, by);
        },
      },
    ];
  }
}
