import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { channelView } from './channel.view';
import { ChannelsService } from './channels.service';
import { ChannelResponse, ChannelWithWarningsResponse } from './dto/channel.response';
import { CreateChannelDto } from './dto/create-channel.dto';
import { UpdateChannelDto } from './dto/update-channel.dto';

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
  @ApiOkResponse({ type: [ChannelResponse] })
  async list(@CurrentPrincipal() by: Principal): Promise<ChannelResponse[]> {
    return (await this.channels.list(by)).map(channelView);
  }

  @Get(':name')
  @ApiOkResponse({ type: ChannelResponse })
  async get(@Param('name') name: string, @CurrentPrincipal() by: Principal): Promise<ChannelResponse> {
    return channelView(await this.channels.get(name, by));
  }

  @Patch(':name')
  @ApiOkResponse({ type: ChannelWithWarningsResponse })
  async update(@Param('name') name: string, @Body() dto: UpdateChannelDto, @CurrentPrincipal() by: Principal): Promise<ChannelWithWarningsResponse> {
    const { channel, warnings } = await this.channels.update(name, dto, by);
    return { ...channelView(channel), warnings };
  }
}
