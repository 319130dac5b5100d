import { Injectable } from '@nestjs/common';
import { channelView, readerChannelView } from '../../channels/channel.view';
import { ChannelsService } from '../../channels/channels.service';
import { CreateChannelDto } from '../../channels/dto/create-channel.dto';
import { MarkReadDto } from '../../channels/dto/mark-read.dto';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, noArgs, optional, required, toDto, toolInput } from '../tool-args';

export const SUMMARY_TRIGGER_ARGS = {
  update_after_messages: optional({
    type: 'integer',
    description: 'Update the summary once this many messages are not yet in it (default: the service-wide QHORUS_SUMMARY_THRESHOLD).',
    schema: { minimum: 1 },
  }),
  update_after_tokens: optional({
    type: ['integer', 'null'],
    description:
      'Also update the summary once the messages not yet in it reach this many estimated tokens, whichever of the ' +
      'two thresholds comes first (null: off, the default).',
    schema: { minimum: 1 },
  }),
  update_after_seconds: optional({
    type: ['integer', 'null'],
    description: 'Also update it this many seconds after the last update when messages are pending (null: off).',
    schema: { minimum: 1 },
  }),
  summariser: optional({
    type: 'string',
    description: 'Strategy: heuristic (default, no LLM cost), verbatim, tiered, llm, or a name a deployment registered.',
  }),
};

@Injectable()
export class ChannelTools implements McpToolGroup {
  constructor(private readonly channels: ChannelsService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'create_channel',
        description:
          'Creates a channel with an empty summary slot. The summary then keeps itself current in the background: it ' +
          'updates once update_after_messages messages are not yet in it, or update_after_seconds after the last update. ' +
          'members (a non-empty list) makes the channel private to those agents (you are added); anyone else gets "not found". Fails if the ' +
          'name is taken. Returns the channel, with warnings if the chosen summariser is unavailable.',
        input: toolInput({
          name: required({ type: 'string', description: 'Channel name: a slug of 1-64 characters a-z, 0-9, ".", "_" or "-".' }),
          description: optional({ type: 'string', description: 'What the channel is for; the LLM summariser is grounded on it.' }),
          ...SUMMARY_TRIGGER_ARGS,
          summary_threshold: optional({ type: 'integer', description: 'Same as update_after_messages.', schema: { minimum: 1 } }),
          members: optional({ type: 'array', description: 'Agent names that may see the channel; omit for a public channel.', schema: { items: { type: 'string' } } }),
        }),
        run: async (args, by) => {
          const dto = await toDto(CreateChannelDto, args, {
            name: 'name',
            description: 'description',
            update_after_messages: 'summaryThreshold',
            summary_threshold: 'summaryThreshold',
            update_after_tokens: 'summaryThresholdTokens',
            update_after_seconds: 'updateAfterSeconds',
            summariser: 'summariser',
            members: 'members',
          });
          const { channel, warnings } = await this.channels.create(dto, by);
          return { ...channelView(channel), warnings };
        },
      },
      {
        name: 'list_channels',
        description:
          'Lists the channels you can see, each with lastSeq (the seq of its newest message), readThroughSeq (your read ' +
          'cursor, see mark_read) and unread (messages after it), its summary settings and members (null: public). ' +
          'Next, call get_channel_summary on a channel before reading its messages.',
        input: toolInput({}),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          noArgs(args);
          return { channels: (await this.channels.listForReader(by)).map((c) => readerChannelView(c.channel, c.readThroughSeq)) };
        },
      },
      {
        name: 'mark_read',
        description:
          'Records that you have read the channel through through_seq (usually nextAfterSeq of your last check_messages). ' +
          'Your cursor only moves forward: a lower value leaves it and returns it. list_channels then shows unread ' +
          'counts after it, and check_messages unread_only=true starts after it.',
        input: toolInput({
          channel: CHANNEL_ARG,
          through_seq: required({ type: 'integer', description: "The last seq you have read (at most the channel's lastSeq).", schema: { minimum: 0 } }),
        }),
        annotations: { idempotentHint: true, destructiveHint: false },
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(MarkReadDto, args, { through_seq: 'throughSeq' }, ['channel']);
          return this.channels.markRead(channel, dto.throughSeq, by);
        },
      },
    ];
  }
}
