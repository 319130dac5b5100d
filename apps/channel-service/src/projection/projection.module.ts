import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { SummaryModule } from '../summary/summary.module';
import { ProjectionController } from './projection.controller';
import { ProjectionRepository } from './projection.repository';
import { ProjectionService } from './projection.service';

@Module({
  imports: [ChannelsModule, SummaryModule],
  controllers: [ProjectionController],
  providers: [ProjectionRepository, ProjectionService],
  exports: [ProjectionService],
})
export class ProjectionModule {}
