import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { ListThreadsQuery } from './dto/list-threads.query';
import { ThreadPageQuery } from './dto/thread-page.query';
import { ThreadDetailResponse, ThreadResponse } from './dto/thread.response';
import { ThreadSummaryResponse } from './dto/thread-summary.response';
import { ThreadsService } from './threads.service';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('channels/:name/threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadsService) {}

  /** The channel's threads from the durable thread index, oldest first; `status` filters (open, answered, done, declined, failed). */
  @Get()
  @ApiOkResponse({ type: [ThreadResponse] })
  list(@Param('name') name: string, @Query() query: ListThreadsQuery, @CurrentPrincipal() by: Principal): Promise<ThreadResponse[]> {
    return this.threads.list(name, query, by);
  }

  /** One thread: its index row, a page of its messages (`afterSeq`, `limit`) and, once closed and summarised, its summary. */
  @Get(':correlationId')
  @ApiOkResponse({ type: ThreadDetailResponse })
  get(@Param('name') name: string, @Param('correlationId') correlationId: string, @Query() query: ThreadPageQuery, @CurrentPrincipal() by: Principal): Promise<ThreadDetailResponse> {
    return this.threads.get(name, correlationId, query, by);
  }

  /** The summary of one closed thread (answered, done, declined or failed); 404 while it is open or not summarised yet. */
  @Get(':correlationId/summary')
  @ApiOkResponse({ type: ThreadSummaryResponse })
  summary(@Param('name') name: string, @Param('correlationId') correlationId: string, @CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery): Promise<ThreadSummaryResponse> {
    return this.threads.summary(name, correlationId, by);
  }
}
