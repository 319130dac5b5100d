import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { InboxQuery } from './dto/inbox.query';
import { InboxItemResponse } from './dto/thread.response';
import { ThreadsService } from './threads.service';

@ApiTags('threads')
@ApiBearerAuth()
@Controller('inbox')
export class InboxController {
  constructor(private readonly threads: ThreadsService) {}

  /**
   * The caller's open obligations across every channel it may read, oldest first: open threads it
   * owes (targeted at it, or handed off to it) and untargeted open requests from others.
   */
  @Get()
  @ApiOkResponse({ type: [InboxItemResponse] })
  inbox(@Query() query: InboxQuery, @CurrentPrincipal() by: Principal): Promise<InboxItemResponse[]> {
    return this.threads.inbox(query, by);
  }
}
