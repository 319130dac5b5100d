import { Injectable } from '@nestjs/common';
import { channelView } from '../../channels/channel.view';
import { ChannelsService } from '../../channels/channels.service';
import { UpdateChannelDto } from '../../channels/dto/update-channel.dto';
import { OverrideSummaryDto } from '../../summary/dto/override-summary.dto';
import { SummaryService } from '../../summary/summary.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, noArgs, optional, required, toDto, toolInput } from '../tool-args';
import { SUMMARY_TRIGGER_ARGS, TRIGGER_RENAMES, triggerArgs } from './channel.tools';

@Injectable()
export class SummaryTools implements McpToolGroup {
  constructor(
    private readonly summaries: SummaryService,
    private readonly channels: ChannelsService,
  ) {}

  tools(): McpTool[] {
    return [
      {
        name: 'get_channel_summary',
        description:
          'Read first: the channel state (who, decisions, open requests) through coversThroughSeq.',
        input: toolInput({ channel: CHANNEL_ARG }),
        run: async (args, by) => {
          const channel = channelArg(args);
          noArgs(args, ['channel']);
          return this.summaries.get(channel, by);
        },
      },
      {
        name: 'configure_channel_summary',
        description: "When a channel's summary updates: after N messages, tokens or seconds (0: off); summariser: heuristic, verbatim, tiered, llm.",
        input: toolInput({ channel: CHANNEL_ARG, ...SUMMARY_TRIGGER_ARGS }),
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(UpdateChannelDto, triggerArgs(args), TRIGGER_RENAMES, ['channel']);
          const { channel: updated, warnings } = await this.channels.update(channel, dto, by);
          return { ...channelView(updated), warnings };
        },
      },
      {
        name: 'trigger_channel_summary_update',
        description: 'Queues a summary update now.',
        input: toolInput({ channel: CHANNEL_ARG }),
        run: async (args, by) => {
          const channel = channelArg(args);
          noArgs(args, ['channel']);
          return this.summaries.refresh(channel, by);
        },
      },
      {
        name: 'update_channel_summary',
        description: 'Replaces the summary text by hand.',
        input: toolInput({
          channel: CHANNEL_ARG,
          text: required({ type: 'string' }),
          expected_version: optional({ type: 'integer', description: 'Only if still at this version.' }),
        }),
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(OverrideSummaryDto, args, { text: 'text', expected_version: 'expectedVersion' }, ['channel']);
          return this.summaries.override(channel, dto, by);
        },
      },
    ];
  }
}
