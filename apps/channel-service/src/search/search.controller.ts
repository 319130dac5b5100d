import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { SearchQuery } from './dto/search.query';
import { SearchResponse } from './dto/search.response';
import { SearchService } from './search.service';

@ApiTags('search')
@ApiBearerAuth()
@Controller('search')
export class SearchController {
  constructor(private readonly searches: SearchService) {}

  /**
   * Full-text search over every channel the caller may read (EVENT telemetry only with
   * `includeEvents`), best first, with a snippet around the matches. Page with `nextCursor`.
   * Words match as the text-search configuration splits them (`simple`: as written, no stemming;
   * text written without spaces is split only at spaces and punctuation).
   */
  @Get()
  @ApiOkResponse({ type: SearchResponse })
  search(@Query() query: SearchQuery, @CurrentPrincipal() by: Principal): Promise<SearchResponse> {
    return this.searches.search(query, by);
  }
}
