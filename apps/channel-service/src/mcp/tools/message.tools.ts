import { BadRequestException, Injectable } from '@nestjs/common';
import secureJson from 'secure-json-parse';
import { ChannelsService } from '../../channels/channels.service';
import { fieldProblem } from '../../common/validation.pipe';
import { McpConfig } from '../../config/slices/mcp-config';
import { MESSAGE_TYPES } from '@qhorus/api';
import { ListMessagesQuery } from '../../messages/dto/list-messages.query';
import { PostMessageDto } from '../../messages/dto/post-message.dto';
import { messageView } from '../../message-store/message.entity';
import { idempotencyKeyProblem } from '../../common/idempotency-key';
import { MessagesService } from '../../messages/messages.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { CHANNEL_ARG, channelArg, optional, ToolArgs, toDto, toolInput } from '../tool-args';
import { CHANNEL_ATTRIBUTE, inSpan, POST_SPAN, postedSpan } from '../../telemetry/post-span';

const MS_PER_S = 1000;

@Injectable()
export class MessageTools implements McpToolGroup {
  constructor(
    private readonly messages: MessagesService,
    private readonly channels: ChannelsService,
    private readonly config: McpConfig,
  ) {}

  private maxTimeoutS(): number {
    return this.config.longPollMaxMs / MS_PER_S;
  }

  /** timeout_s in ms: a number of seconds from 0 to the configured maximum (default: the maximum). */
  private timeoutMs(value: unknown): number {
    if (value === undefined || value === null) return this.config.longPollMaxMs;
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
          'Posts as you. QUERY/COMMAND open a thread: keep its correlation_id; answer with RESPONSE and in_reply_to. ' +
          'DECLINE/FAILURE need content, HANDOFF a target; DONE closes.',
        input: toolInput({
          channel: CHANNEL_ARG,
          type: optional({ type: 'string', description: 'Default STATUS.', schema: { enum: MESSAGE_TYPES } }),
          content: optional({ type: 'string' }),
          topic: optional({ type: 'string' }),
          correlation_id: optional({ type: 'string' }),
          in_reply_to: optional({ type: 'integer', description: 'Seq answered.' }),
          target: optional({ type: 'string' }),
          metadata: optional({ type: 'string', description: 'A JSON object, as text.' }),
          idempotency_key: optional({ type: 'string' }),
        }),
        run: async (args, by) => {
          const channel = channelArg(args);
          const dto = await toDto(PostMessageDto, withMetadataObject(args), SEND_RENAMES, ['channel', 'idempotency_key']);
          const { message, replayed } = await inSpan(POST_SPAN, { [CHANNEL_ATTRIBUTE]: channel }, async () => postedSpan(await this.messages.post(channel, dto, by, idempotencyKey(args))));
          return { ...messageView(message), replayed };
        },
      },
      {
        name: 'check_messages',
        description:
          'Messages after after_seq, in seq order; next page: after_seq=nextAfterSeq. Read get_channel_summary first.',
        input: toolInput({
          channel: CHANNEL_ARG,
          after_seq: optional({ type: 'integer' }),
          limit: LIMIT_ARG,
          include_events: EVENTS_ARG,
          ...FILTER_ARGS,
          target: optional({ type: 'string' }),
          before_seq: optional({ type: 'integer', description: 'The newest below it.' }),
          tail: optional({ type: 'integer', description: 'The newest N.' }),
          unread_only: optional({ type: 'boolean' }),
        }),
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
          'Blocks until a message after after_seq exists (else timedOut). For an answer pass correlation_id; for work, addressed_to_me.',
        input: toolInput({
          channel: CHANNEL_ARG,
          after_seq: optional({ type: 'integer', description: 'Default: lastSeq now.' }),
          timeout_s: optional({ type: 'number', schema: { maximum: this.maxTimeoutS() } }),
          addressed_to_me: optional({ type: 'boolean', description: 'Only targeted at you.' }),
          ...FILTER_ARGS,
          limit: LIMIT_ARG,
          include_events: EVENTS_ARG,
        }),
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
  type: optional({ type: 'array', schema: { items: { type: 'string' } } }),
  topic: optional({ type: 'string' }),
  sender: optional({ type: 'string' }),
  correlation_id: optional({ type: 'string' }),
};
const LIMIT_ARG = optional({ type: 'integer' });
const EVENTS_ARG = optional({ type: 'boolean' });

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

/**
 * `metadata` comes as a JSON object written as text (a portable schema has no free-form object);
 * an object as such is taken too. Text that is not JSON is refused naming the argument; JSON that
 * is not an object is left for the DTO, which refuses it as REST does.
 */
function withMetadataObject(args: ToolArgs): ToolArgs {
  const text = args.metadata;
  if (typeof text !== 'string') return args;
  try {
    return { ...args, metadata: secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) };
  } catch {
    throw fieldProblem('metadata', 'must be a JSON object written as text, such as {"ticket":"OPS-1"}');
  }
}

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
