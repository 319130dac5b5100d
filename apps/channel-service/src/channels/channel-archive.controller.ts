import { Controller, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';
import { channelView } from './channel.view';
import { ChannelArchiveService } from './channel-archive.service';
import { ChannelResponse } from './dto/channel.response';

@ApiTags('channels')
@ApiBearerAuth()
@Controller('channels')
export class ChannelArchiveController {
  constructor(private readonly archive: ChannelArchiveService) {}

  /** Makes the channel read-only (posts are a 409), stops its summary jobs and hides it from the default list (creator or admin). */
  @Post(':name/archive')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ChannelResponse, description: 'The channel, archived (already archived: unchanged)' })
  async archiveChannel(@Param('name') name: string, @CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery): Promise<ChannelResponse> {
    return channelView(await this.archive.setArchived(name, true, by));
  }

  /** Makes an archived channel writable again (creator or admin). */
  @Post(':name/unarchive')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ChannelResponse, description: 'The channel, not archived (already not archived: unchanged)' })
  async unarchiveChannel(@Param('name') name: string, @CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery): Promise<ChannelResponse> {
    return channelView(await this.archive.setArchived(name, false, by));
  }
}
