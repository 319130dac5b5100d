import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { channelView } from './channel.view';
import { ChannelsService } from './channels.service';
import { CreateChannelDto } from './dto/create-channel.dto';
import { UpdateChannelDto } from './dto/update-channel.dto';

@ApiTags('channels')
@ApiBearerAuth()
@Controller('channels')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Post()
  async create(@Body() dto: CreateChannelDto, @CurrentPrincipal() by: Principal) {
    const { channel, warnings } = await this.channels.create(dto, by);
    return { ...channelView(channel), warnings };
  }

  @Get()
  async list(@CurrentPrincipal() by: Principal) {
    return (await this.channels.list(by)).map(channelView);
  }

  @Get(':name')
  async get(@Param('name') name: string, @CurrentPrincipal() by: Principal) {
    return channelView(await this.channels.get(name, by));
  }

  @Patch(':name')
  async update(@Param('name') name: string, @Body() dto: UpdateChannelDto, @CurrentPrincipal() by: Principal) {
    const { channel, warnings } = await this.channels.update(name, dto, by);
    return { ...channelView(channel), warnings };
  }
}
