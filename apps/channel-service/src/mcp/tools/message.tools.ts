import { BadRequestException, Injectable } from '@nestjs/common';
import { ChannelsService } from '../../channels/channels.service';
import { fieldProblem } from '../../common/validation.pipe';
import { AppConfig } from '../../config/app-config';
import { MESSAGE_TYPES } from '@qhorus/api';
import { ListMessagesQuery } from '../../messages/dto/list-messages.query';
import { PostMessageDto } from '../../messages/dto/post-message.dto';
import { messageView } from '../../messages/message.entity';
import { idempotencyKeyProblem, MessagesService } from '../../messages/messages.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, optional, ToolArgs, toDto, toolInput } from '../tool-args';
import { CHANNEL_ATTRIBUTE, inSpan, POST_SPAN, postedSpan } from '../../telemetry/post-span';

const MS_PER_S = 1000;

@Injectable()
export class MessageTools implements McpToolGroup {
  constructor(
    private readonly messages: MessagesService,
    private readonly channels: ChannelsService,
    private readonly config: AppConfig,
  ) {}

  private maxTimeoutS(): number {
    return this.config.QHORUS_LONG_POLL_MAX_MS / MS_PER_S;
  }

  /** timeout_s in ms: a number of seconds from 0 to the configured maximum (default: the maximum). */
  private timeoutMs(value: unknown): number {
    if (value === undefined || value === null) return this.config.QHORUS_LONG_POLL_MAX_MS;
    const max = this.maxTimeoutS();
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw fieldProblem('timeout_s', `must be a number of seconds from 0 to ${max}`);
    if (value > max) throw fieldProblem('timeout_s', `must be at most ${max} (QHORUS_LONG_POLL_MAX_MS)`);
    return Math.round(value * MS_PER_S);
  }

  tools(): McpTool[] {
    return [
      {
        name: 'send_message',
        description:
          'Posts a message to a channel as you (the sender is always the caller). type: QUERY or COMMAND open a thread ' +
          '(a correlation_id is generated when absent: keep it); RESPONSE answers one (pass in_reply_to = its seq: ' +
          'a reply without correlation_id takes that of the message it answers); STATUS (default) reports progress; DECLINE and FAILURE need content; HANDOFF needs a ' +
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
          const { message, replayed } = await inSpan(POST_SPAN, { [CHANNEL_ATTRIBUTE]: channel }, async () => postedSpan(await this.messages.post(channel, dto, by, idempotencyKey(args))));
          return { ...messageView(message), replayed };
        },
      },
      {
        name: 'check_messages',
        description:
          'Reads a channel\'s messages in seq order with seq > after_seq, at most limit. Call get_channel_summary first: ' +
          'it already covers every seq up to its coversThroughSeq, so after_seq=coversThroughSeq usually gives all you ' +
          'need. To page, call again with after_seq = nextAfterSeq from the result. unread_only starts after your read ' +
          'cursor (see mark_read). tail=N gives the newest N (before before_seq when given), still in seq order. Filters: ' +
          'type (e.g. "QUERY,COMMAND"), topic, sender, correlation_id, target. EVENT telemetry is hidden unless ' +
          'include_events is true (or type names EVENT).',
        input: toolInput({
          channel: CHANNEL_ARG,
          after_seq: optional({ type: 'integer', description: 'Only messages with a greater seq (default 0: from the start).', schema: { minimum: 0 } }),
          limit: optional({ type: 'integer', description: 'Page size (default 100, capped by the server).', schema: { minimum: 1 } }),
          include_events: optional({ type: 'boolean', description: 'Include EVENT telemetry (default false).' }),
          ...FILTER_ARGS,
          target: optional({ type: 'string', description: 'Only messages addressed to this agent.' }),
          before_seq: optional({ type: 'integer', description: 'Only messages with a smaller seq; the page is the newest of them.', schema: { minimum: 1 } }),
          tail: optional({ type: 'integer', description: 'The newest N messages (in seq order).', schema: { minimum: 1 } }),
          unread_only: optional({ type: 'boolean', description: 'Only messages after your read cursor (mark_read).' }),
        }),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const channel = channelArg(args);
          const query = await toDto(ListMessagesQuery, args, CHECK_RENAMES, ['channel']);
          const { messages, afterSeq, nextAfterSeq, firstSeq } = await this.messages.readPage(channel, query, by);
          return { channel, afterSeq, firstSeq, messages: messages.map(messageView), nextAfterSeq };
        },
      },
      {
        name: 'wait_for_messages',
        description:
          'Blocks until a message with seq > after_seq arrives in the channel (or one is already there), then returns ' +
          'it and any others after after_seq; returns an empty list (timedOut true) after timeout_s. addressed_to_me: ' +
          'only messages whose target is you (a QUERY or COMMAND for you, a HANDOFF to you): use it to wait for work ' +
          'sent to you. An answer to your own request carries no target: to wait for it, pass correlation_id (the ' +
          "request's correlation id) instead. Either way it replaces polling check_messages. Continue with " +
          'after_seq = nextAfterSeq.',
        input: toolInput({
          channel: CHANNEL_ARG,
          after_seq: optional({ type: 'integer', description: "Wait for messages with a greater seq (default: the channel's lastSeq now, i.e. only new ones).", schema: { minimum: 0 } }),
          timeout_s: optional({
            type: 'number',
            description: `Longest wait in seconds (default and maximum ${this.maxTimeoutS()}, below the 60 s MCP request timeout).`,
            schema: { minimum: 0, maximum: this.maxTimeoutS() },
          }),
          addressed_to_me: optional({ type: 'boolean', description: 'Only messages whose target is you (default false).' }),
          ...FILTER_ARGS,
          limit: optional({ type: 'integer', description: 'Page size (default 100, capped by the server).', schema: { minimum: 1 } }),
          include_events: optional({ type: 'boolean', description: 'Also wake on EVENT telemetry (default false).' }),
        }),
        annotations: { readOnlyHint: true },
        run: async (args, by, signal) => {
          const channel = channelArg(args);
          const waitMs = this.timeoutMs(args.timeout_s);
          const addressedToMe = booleanArg(args, 'addressed_to_me');
          const query = await toDto(ListMessagesQuery, args, WAIT_RENAMES, ['channel', 'timeout_s', 'addressed_to_me']);
          if (query.afterSeq === undefined) query.afterSeq = (await this.channels.get(channel, by)).lastSeq;
          if (addressedToMe) query.target = by.name;
          query.waitMs = waitMs;
          const { messages, afterSeq, nextAfterSeq } = await this.messages.readPage(channel, query, by, signal);
          return { channel, afterSeq, messages: messages.map(messageView), nextAfterSeq, timedOut: messages.length === 0 };
        },
      },
    ];
  }
}

/** The filters check_messages and wait_for_messages share (REST: the same query parameters). */
const FILTER_ARGS = {
  type: optional({ type: ['string', 'array'], description: 'Only these types: "QUERY,COMMAND" or ["QUERY", "COMMAND"].' }),
  topic: optional({ type: 'string', description: 'Only this topic.' }),
  sender: optional({ type: 'string', description: 'Only messages from this agent.' }),
  correlation_id: optional({ type: 'string', description: 'Only this thread.' }),
};

const FILTER_RENAMES = { type: 'type', topic: 'topic', sender: 'sender', correlation_id: 'correlationId' };
const CHECK_RENAMES = {
  ...FILTER_RENAMES,
  after_seq: 'afterSeq',
  limit: 'limit',
  include_events: 'includeEvents',
  target: 'target',
  before_seq: 'beforeSeq',
  tail: 'tail',
  unread_only: 'unreadOnly',
};
const WAIT_RENAMES = { ...FILTER_RENAMES, after_seq: 'afterSeq', limit: 'limit', include_events: 'includeEvents' };

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



function booleanArg(args: ToolArgs, field: string): boolean {
  const value = args[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw fieldProblem(field, 'must be a boolean');
  return value;
}

/**
 * REST takes it as the Idempotency-Key header; here it is an argument, checked by the same rule
 * (idempotencyKeyProblem) but refused in the argument's name, as every other argument is.
 */
function idempotencyKey(args: ToolArgs): string | undefined {
  const key = args.idempotency_key;
  if (key === undefined || key === null) return undefined;
  if (typeof key !== 'string') throw idempotencyKeyError('must be a string');
  const problem = idempotencyKeyProblem(key);
  if (problem) throw idempotencyKeyError(problem);
  return key;
}

function idempotencyKeyError(problem: string): BadRequestException {
  const text = `idempotency_key ${problem}`;
  return new BadRequestException({ message: `Invalid request: ${text}`, details: [{ field: 'idempotency_key', problems: [text] }] });
}
