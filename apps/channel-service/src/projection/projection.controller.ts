import { Controller, Get, Param, Query } from '@nestjs/common';
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
  @ApiOkResponse({ type: ContextResponse })
  context(@Param('name') name: string, @Query() query: ContextQuery, @CurrentPrincipal() by: Principal): Promise<ContextResponse> {
    return this.projection.context(name, query, by);
  }
}
