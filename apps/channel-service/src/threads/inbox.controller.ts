import { Controller, Get, Headers, HttpStatus, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { clientGone } from '../common/client-gone';
import { InboxQuery } from './dto/inbox.query';
import { InboxItemResponse } from './dto/thread.response';
import { ThreadsService } from './threads.service';

/** The whole count behind a page that may be cut. */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';
/** The inbox page's tag, for `If-None-Match` (a conditional read, or a long poll until it changes). */
export const ETAG_HEADER = 'ETag';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('inbox')
export class InboxController {
  constructor(private readonly threads: ThreadsService) {}

  /**
   * The caller's open obligations across every channel it may read, oldest first: open threads it
   * owes (targeted at it, or handed off to it) and untargeted open requests from others. At most
   * `limit`; the `X-Total-Count` header says how many there are in all. The `ETag` names this
   * page: with `If-None-Match` it answers 304 while the inbox is the same, and with `waitMs` it
   * waits for the inbox to change first (a hook's "anything new for me?").
   */
  @Get()
  @ApiHeader({ name: 'If-None-Match', required: false, description: "An inbox's ETag: 304 while the inbox is still that one (with waitMs: wait for a change first)" })
  @ApiOkResponse({
    type: [InboxItemResponse],
    headers: {
      [TOTAL_COUNT_HEADER]: { description: 'How many obligations there are in all (more than the page holds when it was cut at `limit`)', schema: { type: 'integer' } },
      [ETAG_HEADER]: { description: 'Names this page (its obligations and the total; not their ages)', schema: { type: 'string' } },
    },
  })
  @ApiResponse({ status: HttpStatus.NOT_MODIFIED, description: 'The inbox is the one If-None-Match names (with waitMs: still, when the time was up); no body' })
  async inbox(
    @Query() query: InboxQuery,
    @CurrentPrincipal() by: Principal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<InboxItemResponse[] | undefined> {
    const page = await this.threads.inbox(query, by, ifNoneMatch, query.waitMs ? clientGone(reply) : undefined);
    reply.header(ETAG_HEADER, page.tag);
    if (page.notModified) {
      reply.status(HttpStatus.NOT_MODIFIED);
      return undefined;
    }
    reply.header(TOTAL_COUNT_HEADER, String(page.total));
    return page.items;
  }
}
