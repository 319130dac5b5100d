import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { ThreadSummariesService } from './thread-summaries.service';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('channels/:name/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadSummariesService) {}

  /** The summary of one closed thread (DONE, FAILURE or HANDOFF); 404 while it is open. */
  @Get(':correlationId/summary')
  summary(@Param('name') name: string, @Param('correlationId') correlationId: string, @CurrentPrincipal() by: Principal) {
    return this.threads.get(name, correlationId, by);
  }
}
