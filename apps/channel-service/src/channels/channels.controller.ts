import { Body, Controller, Get, HttpCode, HttpStatus, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { channelView, readerChannelView } from './channel.view';
import { ChannelsService } from './channels.service';
import { ChannelWithWarningsResponse, ReadCursorResponse, ReaderChannelResponse } from './dto/channel.response';
import { CreateChannelDto } from './dto/create-channel.dto';
import { ListChannelsQuery } from './dto/list-channels.query';
import { MarkReadDto } from './dto/mark-read.dto';
import { UpdateChannelDto } from './dto/update-channel.dto';
import { NoQuery, NoQueryPipe } from '../common/no-query.pipe';

@ApiTags('channels')
@ApiBearerAuth()
@Controller('channels')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Post()
  @ApiCreatedResponse({ type: ChannelWithWarningsResponse })
  async create(@Body() dto: CreateChannelDto, @CurrentPrincipal() by: Principal): Promise<ChannelWithWarningsResponse> {
    const { channel, warnings } = await this.channels.create(dto, by);
    return { ...channelView(channel), warnings };
  }

  @Get()
  @ApiOkResponse({ type: [ReaderChannelResponse] })
  async list(@CurrentPrincipal() by: Principal, @Query() query: ListChannelsQuery): Promise<ReaderChannelResponse[]> {
    return (await this.channels.listForReader(by, query.archived ?? false)).map((c) => readerChannelView(c.channel, c.readThroughSeq));
  }

  @Get(':name')
  @ApiOkResponse({ type: ReaderChannelResponse })
  async get(@Param('name') name: string, @CurrentPrincipal() by: Principal, @Query(NoQueryPipe) _query: NoQuery): Promise<ReaderChannelResponse> {
    const { channel, readThroughSeq } = await this.channels.getForReader(name, by);
    return readerChannelView(channel, readThroughSeq);
  }

  /** Moves the caller's read cursor forward (a lower throughSeq is a no-op returning the current cursor). */
  @Post(':name/read')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: ReadCursorResponse })
  async markRead(@Param('name') name: string, @Body() dto: MarkReadDto, @CurrentPrincipal() by: Principal): Promise<ReadCursorResponse> {
    return this.channels.markRead(name, dto.throughSeq, by);
  }

  @Patch(':name')
  @ApiOkResponse({ type: ChannelWithWarningsResponse })
  async update(@Param('name') name: string, @Body() dto: UpdateChannelDto, @CurrentPrincipal() by: Principal): Promise<ChannelWithWarningsResponse> {
    const { channel, warnings } = await this.channels.update(name, dto, by);
    return { ...channelView(channel), warnings };
  }
}
