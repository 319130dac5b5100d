import { Injectable } from '@nestjs/common';
import { channelView } from '../../channels/channel.view';
import { ChannelsService } from '../../channels/channels.service';
import { UpdateChannelDto } from '../../channels/dto/update-channel.dto';
import { OverrideSummaryDto } from '../../summary/dto/override-summary.dto';
import { SummaryService } from '../../summary/summary.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, noArgs, optional, required, toDto, toolInput } from '../tool-args';
import { SUMMARY_TRIGGER_ARGS } from './channel.tools';

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
          'Read this first when you join or return to a channel. text is a short state report (who is here, what was ' +
          'decided, which requests are still open) covering messages 1..coversThroughSeq; pending messages after that are ' +
          'not in it yet (pendingTokens: about how many tokens they take): read them with check_messages ' +
          'after_seq=coversThroughSeq, or take get_channel_context for a ' +
          'ready-made prompt. Before the first summary, text is empty and version is 0.',
        input: toolInput({ channel: CHANNEL_ARG }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          noArgs(args, ['channel']);
          return this.summaries.get(channel, by);
        },
      },
      {
        name: 'configure_channel_summary',
        description:
          'Changes when and how a channel\'s summary updates: update_after_messages (how many messages may wait outside ' +
          'the summary), update_after_tokens (how many estimated tokens may wait; null turns it off), update_after_seconds (a time trigger; null turns it off) and summariser (the strategy). Applies ' +
          'from the next update; if the waiting messages already reach the new threshold, an update is queued now.',
        input: toolInput({ channel: CHANNEL_ARG, ...SUMMARY_TRIGGER_ARGS }),
        annotations: { idempotentHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(
            UpdateChannelDto,
            args,
            {
              update_after_messages: 'summaryThreshold',
              update_after_tokens: 'summaryThresholdTokens',
              update_after_seconds: 'updateAfterSeconds',
              summariser: 'summariser',
            },
            ['channel'],
          );
          const { channel: updated, warnings } = await this.channels.update(channel, dto, by);
          return { ...channelView(updated), warnings };
        },
      },
      {
        name: 'trigger_channel_summary_update',
        description:
          'Queues a summary update now, whatever the threshold (nothing to do when no message is pending). Returns at ' +
          'once with queued and pending: the update runs in the background, so poll get_channel_summary until its ' +
          'version increases.',
        input: toolInput({ channel: CHANNEL_ARG }),
        run: async (args, by) => {
          const channel = channelArg(args);
          noArgs(args, ['channel']);
          return this.summaries.refresh(channel, by);
        },
      },
      {
        name: 'update_channel_summary',
        description:
          'Replaces the summary text by hand, e.g. to correct it. Annotations are kept, the summary then covers every ' +
          'message so far, and it becomes a new version (the previous one stays in the history). Pass expected_version ' +
          '(the version you read) to apply it only if nobody updated the summary since.',
        input: toolInput({
          channel: CHANNEL_ARG,
          text: required({ type: 'string', description: 'The new summary text (not blank).' }),
          expected_version: optional({ type: 'integer', description: 'Apply only if the summary is still at this version.', schema: { minimum: 0 } }),
        }),
        annotations: { destructiveHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(OverrideSummaryDto, args, { text: 'text', expected_version: 'expectedVersion' }, ['channel']);
          return this.summaries.override(channel, dto, by);
        },
      },
    ];
  }
}
