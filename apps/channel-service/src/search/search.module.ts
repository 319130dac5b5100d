import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { SearchIndexMaintainer } from './search-index.maintainer';
import { SearchController } from './search.controller';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/** Full-text search over messages (DESIGN §12): the route, its service, and the index's upkeep. */
@Module({
  imports: [ChannelsModule],
  controllers: [SearchController],
  providers: [
    SearchRepository,
    SearchService,
    { provide: SearchIndexMaintainer, inject: [Database, AppConfig], useFactory: (db: Database, config: AppConfig) => SearchIndexMaintainer.prepare(db, config) },
  ],
  exports: [SearchService, SearchIndexMaintainer],
})
export class SearchModule {}
