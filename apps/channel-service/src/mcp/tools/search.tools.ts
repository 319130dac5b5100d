import { Injectable } from '@nestjs/common';
import { SearchQuery } from '../../search/dto/search.query';
import { SearchService } from '../../search/search.service';
import { McpTool, McpToolGroup } from '../mcp-tool';
import { optional, required, toDto, toolInput } from '../tool-args';

/** Search for agents: the REST route's DTO, service and answer. */
@Injectable()
export class SearchTools implements McpToolGroup {
  constructor(private readonly searches: SearchService) {}

  tools(): McpTool[] {
    return [
      {
        name: 'search_messages',
        // Compact: every character here is in every agent's context on every turn (issue 28's budget).
        description: 'Search messages you may read, best first. query: words, "a phrase", or, -word. Next page: cursor = nextCursor.',
        input: toolInput({
          query: required({ type: 'string' }),
          channel: optional({ type: 'string' }),
          limit: optional({ type: 'integer' }),
          cursor: optional({ type: 'string' }),
        }),
        run: async (args, by) => {
          const query = await toDto(SearchQuery, args, { query: 'q', channel: 'channel', limit: 'limit', cursor: 'cursor' });
          return this.searches.search(query, by);
        },
      },
    ];
  }
}
