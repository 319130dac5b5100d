import { Module } from '@nestjs/common';
import { ChannelsController } from './channels.controller';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';
import { ReadCursorsRepository } from './read-cursors.repository';

@Module({
  controllers: [ChannelsController],
  providers: [ChannelsRepository, ChannelsService, ReadCursorsRepository],
  exports: [ChannelsRepository, ChannelsService],
})
export class ChannelsModule {}
