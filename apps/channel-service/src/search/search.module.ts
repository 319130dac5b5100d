import { Module } from '@nestjs/common';
import { ChannelsModule } from '../channels/channels.module';
import { DatabaseConfig } from '../config/slices/database-config';
import { SearchConfig } from '../config/slices/search-config';
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
    {
      provide: SearchIndexMaintainer,
      inject: [Database, SearchConfig, DatabaseConfig],
      useFactory: (db: Database, config: SearchConfig, database: DatabaseConfig) => SearchIndexMaintainer.prepare(db, config, database),
    },
  ],
  exports: [SearchService, SearchIndexMaintainer],
})
export class SearchModule {}
