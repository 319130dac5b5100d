import { Injectable } from '@nestjs/common';
import { CONTEXT_FORMATS } from '../../projection/context-format';
import { ContextQuery } from '../../projection/dto/context.query';
import { DEFAULT_CONTEXT_MAX_TOKENS, DEFAULT_KEEP_LAST } from '../../projection/projection-limits';
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
          'Builds a ready-to-send prompt from a channel within max_tokens: the summary first (byte-identical until the ' +
          'summary changes, so a provider\'s prompt cache stays warm), then the messages after it verbatim: the ' +
          'viewer\'s own as assistant turns, everyone else\'s as user turns tagged [sender · TYPE #seq]. When they do ' +
          'not fit, the oldest are condensed into a digest. Markers name the seq ranges, to expand with check_messages. ' +
          'historyTokens vs projectedTokens tells what reading the whole history would cost.',
        input: toolInput({
          channel: CHANNEL_ARG,
          viewer: optional({ type: 'string', description: 'Whose messages become assistant turns (default: you).' }),
          keep_last: optional({ type: 'integer', description: `Newest messages always kept verbatim (default ${DEFAULT_KEEP_LAST}).`, schema: { minimum: 0 } }),
          max_tokens: optional({ type: 'integer', description: `Token budget of the whole projection (default ${DEFAULT_CONTEXT_MAX_TOKENS}).` }),
          format: optional({ type: 'string', description: 'anthropic (default) or openai: `messages` is that provider\'s message array; text: `text` is one string (no `messages`).', schema: { enum: CONTEXT_FORMATS } }),
        }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const query = await toDto(ContextQuery, args, { viewer: 'viewer', keep_last: 'keepLast', max_tokens: 'maxTokens', format: 'format' }, ['channel']);
          return this.projection.context(channel, query, by);
        },
      },
    ];
  }
}
