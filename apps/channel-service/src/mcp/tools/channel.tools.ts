import { Injectable } from '@nestjs/common';
import { channelView, readerChannelView } from '../../channels/channel.view';
import { ChannelsService } from '../../channels/channels.service';
import { CreateChannelDto } from '../../channels/dto/create-channel.dto';
import { MarkReadDto } from '../../channels/dto/mark-read.dto';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, noArgs, optional, required, ToolArgs, toDto, toolInput } from '../tool-args';

export const SUMMARY_TRIGGER_ARGS = {
  update_after_messages: optional({ type: 'integer' }),
  update_after_tokens: optional({ type: 'integer' }),
  update_after_seconds: optional({ type: 'integer' }),
  summariser: optional({ type: 'string' }),
};

/** Trigger arguments where 0 turns the trigger off (REST: null; a portable schema has no null). */
const OFF_WHEN_ZERO = ['update_after_tokens', 'update_after_seconds'];

/** The trigger arguments with 0 as null ("off"), for the DTO; anything else is left for the DTO to judge. */
export function triggerArgs(args: ToolArgs): ToolArgs {
  const mapped = { ...args };
  for (const arg of OFF_WHEN_ZERO) if (mapped[arg] === 0) mapped[arg] = null;
  return mapped;
}

export const TRIGGER_RENAMES = {
  update_after_messages: 'summaryThreshold',
  update_after_tokens: 'summaryThresholdTokens',
  update_after_seconds: 'updateAfterSeconds',
  summariser: 'summariser',
};

@Injectable()
export class ChannelTools implements McpToolGroup {
  constructor(private readonly channels: ChannelsService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'create_channel',
        description: 'Creates a channel; members make it private. Summary options: see configure_channel_summary.',
        input: toolInput({
          name: required({ type: 'string' }),
          description: optional({ type: 'string' }),
          ...SUMMARY_TRIGGER_ARGS,
          members: optional({ type: 'array', schema: { items: { type: 'string' } } }),
        }),
        run: async (args, by) => {
          const dto = await toDto(CreateChannelDto, triggerArgs(args), { name: 'name', description: 'description', ...TRIGGER_RENAMES, members: 'members' });
          const { channel, warnings } = await this.channels.create(dto, by);
          return { ...channelView(channel), warnings };
        },
      },
      {
        name: 'list_channels',
        description: 'Channels you can see, with lastSeq and unread.',
        input: toolInput({}),
        run: async (args, by) => {
          noArgs(args);
          return { channels: (await this.channels.listForReader(by)).map((c) => readerChannelView(c.channel, c.readThroughSeq)) };
        },
      },
      {
        name: 'mark_read',
        description: 'Moves your read cursor forward to through_seq.',
        input: toolInput({
          channel: CHANNEL_ARG,
          through_seq: required({ type: 'integer' }),
        }),
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(MarkReadDto, args, { through_seq: 'throughSeq' }, ['channel']);
          return this.channels.markRead(channel, dto.throughSeq, by);
        },
      },
    ];
  }
}
