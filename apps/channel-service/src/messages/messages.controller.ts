import { Body, Controller, Get, HttpStatus, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { clientGone } from '../common/client-gone';
import { Principal } from '../auth/principal';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessageBatchResponse, MessageResponse } from '../message-store/dto/message.response';
import { PostBatchDto } from './dto/post-batch.dto';
import { PostMessageDto } from './dto/post-message.dto';
import { messageView } from '../message-store/message.entity';
import { MessagesService } from './messages.service';
import { IdempotencyKey } from './idempotency-key.decorator';
import { BATCH_SIZE_ATTRIBUTE, CHANNEL_ATTRIBUTE, inSpan, POST_SPAN, postedBatchSpan, postedSpan } from '../telemetry/post-span';

export const REPLAYED_HEADER = 'idempotent-replayed';
/** The oldest kept seq of the channel (retention removed everything before it), on every page. */
export const FIRST_SEQ_HEADER = 'X-First-Seq';

@ApiTags('messages')
@ApiBearerAuth()
@Controller('channels/:name/messages')
export class MessagesController {
  constructor(private readonly messages: MessagesService) {}

  /** Posts a message as the authenticated agent. A retry with the same Idempotency-Key returns the original. */
  @Post()
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Makes retries safe: the same key returns the original message' })
  @ApiCreatedResponse({ type: MessageResponse, description: 'Stored' })
  @ApiOkResponse({ type: MessageResponse, description: 'A retry with the same Idempotency-Key: the original message (header `Idempotent-Replayed: true`)' })
  async post(
    @Param('name') name: string,
    @Body() dto: PostMessageDto,
    @CurrentPrincipal() by: Principal,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse> {
    const { message, replayed } = await inSpan(POST_SPAN, { [CHANNEL_ATTRIBUTE]: name }, async () => postedSpan(await this.messages.post(name, dto, by, idempotencyKey)));
    if (replayed) reply.header(REPLAYED_HEADER, 'true').status(HttpStatus.OK);
    return messageView(message);
  }

  /**
   * Posts several messages in one statement: consecutive seqs, all or nothing. A bad message is a
   * 400 naming its index and field; over QHORUS_BATCH_MAX_MESSAGES or the batch body limit, 413.
   * With an Idempotency-Key, message i is keyed `<key>:<i>` and a retry returns the original batch.
   */
  @Post('batch')
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'Makes retries safe: the same key returns the original batch' })
  @ApiCreatedResponse({ type: MessageBatchResponse, description: 'Stored, in consecutive seqs' })
  @ApiOkResponse({ type: MessageBatchResponse, description: 'A retry with the same Idempotency-Key: the original batch (header `Idempotent-Replayed: true`)' })
  async postBatch(
    @Param('name') name: string,
    @Body() dto: PostBatchDto,
    @CurrentPrincipal() by: Principal,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageBatchResponse> {
    const { messages, replayed } = await inSpan(POST_SPAN, { [CHANNEL_ATTRIBUTE]: name, [BATCH_SIZE_ATTRIBUTE]: dto.messages.length }, async () => postedBatchSpan(await this.messages.postBatch(name, dto, by, idempotencyKey)));
    if (replayed) reply.header(REPLAYED_HEADER, 'true').status(HttpStatus.OK);
    return { messages: messages.map(messageView) };
  }

  /**
   * A page of messages in ascending seq: after `afterSeq`, or the newest with `tail` / before
   * `beforeSeq`, filtered by `type` (comma list), `topic`, `sender`, `correlationId`, `target`.
   * With `waitMs`, a long poll: answers as soon as a matching message after `afterSeq` exists, or
   * with an empty page after `waitMs`.
   */
  @Get()
  @ApiOkResponse({
    type: [MessageResponse],
    description: 'Ascending seq; with waitMs, empty when nothing matching arrived in time',
    headers: { [FIRST_SEQ_HEADER]: { description: 'The oldest kept seq: retention removed everything before it; an afterSeq below it reads from there', schema: { type: 'integer' } } },
  })
  async list(
    @Param('name') name: string,
    @Query() query: ListMessagesQuery,
    @CurrentPrincipal() by: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse[]> {
    const page = await this.messages.readPage(name, query, by, query.waitMs ? clientGone(reply) : undefined);
    reply.header(FIRST_SEQ_HEADER, String(page.firstSeq));
    return page.messages.map(messageView);
  }
}
