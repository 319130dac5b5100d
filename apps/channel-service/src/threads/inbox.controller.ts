import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { InboxQuery } from './dto/inbox.query';
import { InboxItemResponse } from './dto/thread.response';
import { ThreadsService } from './threads.service';

/** The whole count behind a page that may be cut. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('inbox')
export class InboxController {
  constructor(private readonly threads: ThreadsService) {}

  /**
   * The caller's open obligations across every channel it may read, oldest first: open threads it
   * owes (targeted at it, or handed off to it) and untargeted open requests from others. At most
   * `limit`; the `X-Total-Count` header says how many there are in all.
   */
  @Get()
  @ApiOkResponse({
    type: [InboxItemResponse],
    headers: { [TOTAL_COUNT_HEADER]: { description: 'How many obligations there are in all (more than the page holds when it was cut at `limit`)', schema: { type: 'integer' } } },
  })
  async inbox(@Query() query: InboxQuery, @CurrentPrincipal() by: Principal, @Res({ passthrough: true }) reply: FastifyReply): Promise<InboxItemResponse[]> {
    const { items, total } = await this.threads.inbox(query, by);
    reply.header(TOTAL_COUNT_HEADER, String(total));
    return items;
  }
}
