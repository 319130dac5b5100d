import { Body, Controller, Delete, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { NoBodyPipe } from '../common/no-body.pipe';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';
import { MessageResponse } from '../message-store/dto/message.response';
import { messageView } from '../message-store/message.entity';
import { ChannelLifecycleService } from './channel-lifecycle.service';
import { SummaryRebuildResponse } from './dto/rebuild.response';
import { RedactMessageDto } from './dto/redact-message.dto';
import { RedactionService } from './redaction.service';
import { SeqParamPipe } from './seq-param.pipe';

/** Redaction, summary rebuild and channel deletion (DESIGN §10). */
@ApiTags('lifecycle')
@ApiBearerAuth()
@Controller('channels/:name')
export class LifecycleController {
  constructor(
    private readonly redaction: RedactionService,
    private readonly lifecycle: ChannelLifecycleService,
  ) {}

  /**
   * Redacts a message (the sender, the channel's creator or the admin): it keeps its seq, sender,
   * type and time; content, topic and metadata are gone everywhere, summaries written from it
   * included. Answers the tombstone; asking again answers the same tombstone.
   */
  @Post('messages/:seq/redact')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Redact a message (the sender, the channel creator or the admin)' })
  @ApiParam({ name: 'seq', schema: { type: 'integer', minimum: 1 }, description: 'The message to redact' })
  @ApiOkResponse({ type: MessageResponse })
  async redact(
    @Param('name') name: string,
    @Param('seq', SeqParamPipe) seq: number,
    @Body() dto: RedactMessageDto,
    @CurrentPrincipal() by: Principal,
    @Query(NoQueryPipe) _query: NoQuery,
  ): Promise<MessageResponse> {
    return messageView(await this.redaction.redact(name, seq, dto.reason, by));
  }

  /** Drops every summary version, the base included, and summarises the kept messages from empty (the creator or the admin). */
  @Post('summary/rebuild')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Rebuild the summary from the kept messages (the channel creator or the admin)' })
  @ApiAcceptedResponse({ type: SummaryRebuildResponse })
  rebuild(
    @Param('name') name: string,
    @CurrentPrincipal() by: Principal,
    @Query(NoQueryPipe) _query: NoQuery,
    @Body(NoBodyPipe) _body: Record<string, never>,
  ): Promise<SummaryRebuildResponse> {
    return this.lifecycle.rebuildSummary(name, by);
  }

  /** Deletes the channel and everything derived from it; the name may be used again (the creator or the admin). */
  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a channel (the channel creator or the admin)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  remove(
    @Param('name') name: string,
    @CurrentPrincipal() by: Principal,
    @Query(NoQueryPipe) _query: NoQuery,
    @Body(NoBodyPipe) _body: Record<string, never>,
  ): Promise<void> {
    return this.lifecycle.deleteChannel(name, by);
  }
}
