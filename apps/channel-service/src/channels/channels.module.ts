import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { ChannelArchiveController } from './channel-archive.controller';
import { ChannelArchiveService } from './channel-archive.service';
import { ChannelsController } from './channels.controller';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';
import { ReadCursorsRepository } from './read-cursors.repository';

@Module({
  imports: [AuditModule],
  controllers: [ChannelsController, ChannelArchiveController],
  providers: [ChannelsRepository, ChannelsService, ReadCursorsRepository, ChannelArchiveService],
  exports: [ChannelsRepository, ChannelsService],
})
export class ChannelsModule {}
