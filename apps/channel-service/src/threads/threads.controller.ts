import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { ThreadSummaryResponse } from './dto/thread-summary.response';
import { ThreadSummariesService } from './thread-summaries.service';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('channels/:name/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadSummariesService) {}

  /** The summary of one closed thread (DONE, FAILURE or HANDOFF); 404 while it is open. */
  @Get(':correlationId/summary')
  @ApiOkResponse({ type: ThreadSummaryResponse })
  summary(@Param('name') name: string, @Param('correlationId') correlationId: string, @CurrentPrincipal() by: Principal): Promise<ThreadSummaryResponse> {
    return this.threads.get(name, correlationId, by);
  }
}
