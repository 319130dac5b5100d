import { BadRequestException, Injectable } from '@nestjs/common';
import { MESSAGE_TYPES } from '@qhorus/api';
import { ListMessagesQuery } from '../../messages/dto/list-messages.query';
import { PostMessageDto } from '../../messages/dto/post-message.dto';
import { messageView } from '../../messages/message.entity';
import { MessagesService } from '../../messages/messages.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, optional, ToolArgs, toDto, toolInput } from '../tool-args';

@Injectable()
export class MessageTools implements McpToolGroup {
  constructor(private readonly messages: MessagesService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'send_message',
        description:
          'Posts a message to a channel as you (the sender is always the caller). type: QUERY or COMMAND open a thread ' +
          '(a correlation_id is generated when absent: keep it); RESPONSE answers one (pass its correlation_id and ' +
          'in_reply_to = its seq); STATUS (default) reports progress; DECLINE and FAILURE need content; HANDOFF needs a ' +
          'target agent; DONE closes a thread; EVENT is machine telemetry, hidden from reads. Pass idempotency_key when ' +
          'you may retry: the same key returns the original message instead of posting twice. Returns the stored message with its seq.',
        input: toolInput({
          channel: CHANNEL_ARG,
          type: optional({ type: 'string', description: 'Message type (default STATUS).', schema: { enum: MESSAGE_TYPES } }),
          content: optional({ type: 'string', description: 'The text. Required except for DONE, HANDOFF and EVENT.' }),
          topic: optional({ type: 'string', description: 'A short topic label (default "general").' }),
          correlation_id: optional({ type: 'string', description: 'The thread this message belongs to.' }),
          in_reply_to: optional({ type: 'integer', description: 'The seq of the message this one answers.', schema: { minimum: 1 } }),
          target: optional({ type: 'string', description: 'The agent addressed; required for HANDOFF.' }),
          metadata: optional({ type: 'object', description: 'Free-form JSON kept with the message.' }),
          idempotency_key: optional({ type: 'string', description: 'Makes a retry safe: the same key returns the original message.' }),
          sender: optional({ type: 'string', description: 'Optional; when given it must be your own agent name.' }),
        }),
        annotations: { destructiveHint: false },
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(PostMessageDto, args, SEND_RENAMES, ['channel', 'idempotency_key']);
          const { message, replayed } = await this.messages.post(channel, dto, by, idempotencyKey(args));
          return { ...messageView(message), replayed };
        },
      },
      {
        name: 'check_messages',
        description:
          'Reads a channel\'s messages in seq order with seq > after_seq, at most limit. Call get_channel_summary first: ' +
          'it already covers every seq up to its coversThroughSeq, so after_seq=coversThroughSeq usually gives all you ' +
          'need. To page, call again with after_seq = nextAfterSeq from the result. EVENT telemetry is hidden unless ' +
          'include_events is true.',
        input: toolInput({
          channel: CHANNEL_ARG,
          after_seq: optional({ type: 'integer', description: 'Only messages with a greater seq (default 0: from the start).', schema: { minimum: 0 } }),
          limit: optional({ type: 'integer', description: 'Page size (default 100, capped by the server).', schema: { minimum: 1 } }),
          include_events: optional({ type: 'boolean', description: 'Include EVENT telemetry (default false).' }),
        }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const query = await toDto(ListMessagesQuery, args, { after_seq: 'afterSeq', limit: 'limit', include_events: 'includeEvents' }, ['channel']);
          const messages = await this.messages.list(channel, query, by);
          const afterSeq = query.afterSeq ?? 0;
          return { channel, afterSeq, messages: messages.map(messageView), nextAfterSeq: messages[messages.length - 1]?.seq ?? afterSeq };
        },
      },
    ];
  }
}

const SEND_RENAMES = {
  type: 'type',
  content: 'content',
  topic: 'topic',
  correlation_id: 'correlationId',
  in_reply_to: 'inReplyTo',
  target: 'target',
  metadata: 'metadata',
  sender: 'sender',
};

/** REST takes it as the Idempotency-Key header; here it is an argument, checked the same way after this. */
function idempotencyKey(args: ToolArgs): string | undefined {
  const key = args.idempotency_key;
  if (key === undefined || key === null) return undefined;
  if (typeof key !== 'string') {
    throw new BadRequestException({
      message: 'Invalid request: idempotency_key must be a string',
      details: [{ field: 'idempotency_key', problems: ['idempotency_key must be a string'] }],
    });
  }
  return key;
}
