import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { SummaryModule } from '../summary/summary.module';
import { ExportController } from './export.controller';
import { ExportRepository } from './export.repository';
import { ExportService } from './export.service';

/** `GET /channels/{name}/export` (DESIGN §10): a channel as streamed NDJSON. */
@Module({
  imports: [ChannelsModule, SummaryModule],
  controllers: [ExportController],
  providers: [ExportRepository, ExportService],
})
export class ExportModule {}
