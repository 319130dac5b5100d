import { BadRequestException, ConflictException, ForbiddenException, Injectable, PayloadTooLargeException } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { DEFAULT_TOPIC, Message, MessageType, REQUEST_TYPES } from '@qhorus/api';
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../common/canonical-json';
import { isAdmin, Principal } from '../auth/principal';
import { isUniqueViolation } from '../common/database-errors';
import { AppConfig } from '../config/app-config';
import { ChannelsService } from '../channels/channels.service';
import { DEFAULT_MESSAGE_TYPE, PostMessageDto } from './dto/post-message.dto';
import { ListMessagesQuery } from './dto/list-messages.query';
import { LongPollWaits, PostedMessageData } from './long-poll-waits';
import { MessageRow, toMessage } from './message.entity';
import { FilterableMessage, matchesFilter, MessageFilter } from './message-filter';
import { MessagePostedEvent } from './message-posted.event';
import { MessagePage, MessagesRepository, NewMessage } from './messages.repository';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 200;

export interface PostOutcome {
  message: Message;
  /** True when an Idempotency-Key retry returned the original message. */
  replayed: boolean;
}

@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessagesRepository,
    private readonly channels: ChannelsService,
    private readonly config: AppConfig,
    private readonly events: EventEmitter2,
    private readonly waits: LongPollWaits,
  ) {}

  async post(channelName: string, dto: PostMessageDto, by: Principal, idempotencyKey?: string): Promise<PostOutcome> {
    if (dto.sender !== undefined && dto.sender !== by.name) {
      throw new ForbiddenException(`sender '${dto.sender}' is not the authenticated agent '${by.name}'`);
    }
    const content = dto.content ?? '';
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > this.config.QHORUS_MAX_CONTENT_BYTES) {
      throw new PayloadTooLargeException(`content is ${bytes} bytes; the limit is ${this.config.QHORUS_MAX_CONTENT_BYTES}`);
    }
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
      throw new BadRequestException(`Idempotency-Key must be 1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
    }
    const type = (dto.type ?? DEFAULT_MESSAGE_TYPE) as MessageType;
    const requestHash = idempotencyKey ? hashRequest(dto) : null;
    if (idempotencyKey) {
      const replay = await this.replay(channelName, by, idempotencyKey, requestHash!);
      if (replay) return replay;
    }
    const message: NewMessage = {
      type,
      sender: by.name,
      content,
      topic: dto.topic ?? DEFAULT_TOPIC,
      correlationId: dto.correlationId ?? (REQUEST_TYPES.has(type) ? randomUUID() : null),
      inReplyTo: dto.inReplyTo ?? null,
      target: dto.target ?? null,
      metadata: dto.metadata ?? null,
      idempotencyKey: idempotencyKey ?? null,
      requestHash,
    };
    let inserted;
    try {
      inserted = await this.messages.insert(channelName, by.name, isAdmin(by), message);
    } catch (e) {
      // A concurrent retry with the same key won the race: answer as a replay.
      if (idempotencyKey && isUniqueViolation(e, 'messages_idempotency_unique')) {
        const replay = await this.replay(channelName, by, idempotencyKey, requestHash!);
        if (replay) return replay;
      }
      throw e;
    }
    if (!inserted) return this.explainRefusal(channelName, dto, by);
    const posted = toMessage(inserted.row, channelName);
    this.events.emit(MessagePostedEvent.NAME, new MessagePostedEvent(inserted.channelId, posted, inserted.backlog, inserted.summaryThreshold));
    return { message: posted, replayed: false };
  }

  /**
   * One page of the channel's messages, ascending. With `waitMs` (a long poll) and nothing
   * matching after `afterSeq` yet, it waits for the first matching post (`signal`: the caller left).
   */
  async list(channelName: string, query: ListMessagesQuery, by: Principal, signal?: AbortSignal): Promise<Message[]> {
    const waitMs = query.waitMs ?? 0;
    this.assertWaitable(query, waitMs);
    const channel = await this.channels.get(channelName, by);
    const filter = toFilter(query);
    let afterSeq = query.afterSeq ?? 0;
    if (query.unreadOnly) afterSeq = Math.max(afterSeq, await this.channels.readCursor(channel, by));
    const page: MessagePage = {
      afterSeq,
      beforeSeq: query.beforeSeq ?? null,
      limit: Math.min(query.tail ?? query.limit ?? this.config.QHORUS_PAGE_LIMIT_DEFAULT, this.config.QHORUS_PAGE_LIMIT_MAX),
      // Backwards from beforeSeq (or the end) for `tail`, or for `beforeSeq` alone.
      newest: query.tail !== undefined || (query.beforeSeq !== undefined && query.afterSeq === undefined && !query.unreadOnly),
    };
    const read = () => this.messages.page(channel.id, page, filter);
    const wakes = (m: PostedMessageData) => Number(m.seq) > afterSeq && matchesFilter(m as unknown as FilterableMessage, filter);
    const rows = waitMs > 0 ? await this.waits.wait(by.name, channel.id, waitMs, read, wakes, signal) : await read();
    return rows.map((r: MessageRow) => toMessage(r, channel.name));
  }

  /** The long-poll bounds, checked before anything is read. */
  private assertWaitable(query: ListMessagesQuery, waitMs: number): void {
    const max = this.config.QHORUS_LONG_POLL_MAX_MS;
    if (waitMs > max) {
      const problem = `must be at most ${max} (QHORUS_LONG_POLL_MAX_MS)`;
      throw new BadRequestException({ message: `Invalid request: waitMs ${waitMs} ${problem}`, details: [{ field: 'waitMs', problems: [problem] }] });
    }
    if (waitMs > 0 && (query.tail !== undefined || query.beforeSeq !== undefined)) {
      const field = query.tail !== undefined ? 'tail' : 'beforeSeq';
      const problem = `cannot be combined with waitMs: a long poll waits for messages after afterSeq`;
      throw new BadRequestException({ message: `Invalid request: ${field} ${problem}`, details: [{ field, problems: [problem] }] });
    }
  }

  private async replay(channelName: string, by: Principal, key: string, requestHash: string): Promise<PostOutcome | null> {
    const existing = await this.messages.findByIdempotencyKey(channelName, by.name, key);
    if (!existing) return null;
    if (existing.request_hash !== requestHash) {
      throw new ConflictException(`Idempotency-Key '${key}' was already used with a different request body`);
    }
    return { message: toMessage(existing, channelName), replayed: true };
  }

  /** Nothing was written: either the channel is not visible to the caller, or inReplyTo is ahead. */
  private async explainRefusal(channelName: string, dto: PostMessageDto, by: Principal): Promise<never> {
    const channel = await this.channels.get(channelName, by); // 404 when missing or private
    throw new BadRequestException({
      message: `inReplyTo ${dto.inReplyTo} refers to no message in channel '${channel.name}' (last seq ${channel.lastSeq})`,
      details: [{ field: 'inReplyTo', problems: ['must be the seq of an existing message'] }],
    });
  }
}

function toFilter(q: ListMessagesQuery): MessageFilter {
  return {
    types: q.type ? [...new Set(q.type as MessageType[])] : null,
    includeEvents: q.includeEvents ?? false,
    topic: q.topic ?? null,
    sender: q.sender ?? null,
    correlationId: q.correlationId ?? null,
    target: q.target ?? null,
  };
}

/** A stable hash of the request body, so a retry can be told from a different request. */
function hashRequest(dto: PostMessageDto): string {
  return createHash('sha256').update(canonicalJson(dto)).digest('hex');
}
