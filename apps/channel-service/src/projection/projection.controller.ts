import { Controller, Get, Headers, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { answeredNotModified } from '../common/entity-tag';
import { ApiConditionalRead, ETAG_RESPONSE_HEADERS } from '../docs/conditional-read';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { ContextQuery } from './dto/context.query';
import { ContextResponse } from './dto/context.response';
import { ProjectionService } from './projection.service';

@ApiTags('context')
@ApiBearerAuth()
@Controller('channels/:name/context')
export class ProjectionController {
  constructor(private readonly projection: ProjectionService) {}

  /**
   * The channel as a ready-to-send prompt: the summary block first (byte-identical until the
   * summary version changes), then the messages after its watermark, within maxTokens.
   */
  @Get()
  @ApiOkResponse({ type: ContextResponse, headers: ETAG_RESPONSE_HEADERS })
  @ApiConditionalRead()
  async context(
    @Param('name') name: string,
    @Query() query: ContextQuery,
    @CurrentPrincipal() by: Principal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ContextResponse | undefined> {
    const { view, tag } = await this.projection.contextTagged(name, query, by, ifNoneMatch);
    return answeredNotModified(reply, view ? undefined : ifNoneMatch, tag) ? undefined : view;
  }
}
