import { Body, Controller, Get, Headers, HttpCode, HttpStatus, Param, Post, Put, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { answeredNotModified } from '../common/entity-tag';
import { ApiConditionalRead, ETAG_RESPONSE_HEADERS } from '../docs/conditional-read';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { HistoryQuery } from './dto/history.query';
import { OverrideSummaryDto } from './dto/override-summary.dto';
import { SummaryHistoryEntryResponse, SummaryRefreshResponse, SummaryResponse } from './dto/summary.response';
import { SummaryService } from './summary.service';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';

@ApiTags('summary')
@ApiBearerAuth()
@Controller('channels/:name/summary')
export class SummaryController {
  constructor(private readonly summary: SummaryService) {}

  /** The summary slot; 200 with empty text and version 0 before the first summary. */
  @Get()
  @ApiOkResponse({ type: SummaryResponse, headers: ETAG_RESPONSE_HEADERS })
  @ApiConditionalRead()
  async get(
    @Param('name') name: string,
    @CurrentPrincipal() by: Principal,
    @Query(NoQueryPipe) _query: NoQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SummaryResponse | undefined> {
    const { view, tag } = await this.summary.getTagged(name, by);
    return answeredNotModified(reply, ifNoneMatch, tag) ? undefined : view;
  }

  /** Enqueues a summary job now. */
  @Post('refresh')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: SummaryRefreshResponse })
  refresh(@Param('name') name: string, @CurrentPrincipal() by: Principal): Promise<SummaryRefreshResponse> {
    return this.summary.refresh(name, by);
  }

  /** Replaces the text by hand (annotations kept; the watermark moves to lastSeq). */
  @Put()
  @ApiOkResponse({ type: SummaryResponse })
  override(@Param('name') name: string, @Body() dto: OverrideSummaryDto, @CurrentPrincipal() by: Principal): Promise<SummaryResponse> {
    return this.summary.override(name, dto, by);
  }

  /**
   * The versions the slot has had, newest first: the newest QHORUS_SUMMARY_HISTORY_KEEP are kept.
   * Page with `beforeVersion` (the smallest version of the previous page).
   */
  @Get('history')
  @ApiOkResponse({ type: [SummaryHistoryEntryResponse] })
  history(@Param('name') name: string, @Query() query: HistoryQuery, @CurrentPrincipal() by: Principal): Promise<SummaryHistoryEntryResponse[]> {
    return this.summary.history(name, by, query);
  }
}
