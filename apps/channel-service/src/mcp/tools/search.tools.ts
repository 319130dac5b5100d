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
        description:
          'Full-text search over every channel you may read (or one), best match first: where was X decided, what did Y ' +
          'say about Z. query uses web-search syntax: words (all must match), "a quoted phrase", or between alternatives, ' +
          '-word to exclude. Words match as written (no stemming). Each result has channel, seq, sender, type, topic, ' +
          'createdAt, rank and a snippet with the matches between « and »; read around one with check_messages ' +
          '(after_seq = seq − 1). When nextCursor is not null, call again with cursor = nextCursor for more.',
        input: toolInput(
          {
            query: required({ type: 'string', description: 'What to look for, e.g. retry policy, "retry policy", retry or backoff -flaky.' }),
            channel: optional({ type: 'string', description: 'Only this channel.' }),
            limit: optional({ type: 'integer', description: 'At most this many results (default and maximum are configured).', schema: { minimum: 1 } }),
            cursor: optional({ type: 'string', description: 'The nextCursor of the previous answer, for the next page of the same search.' }),
          },
          { closed: true },
        ),
        annotations: { readOnlyHint: true },
        run: async (args, by) => {
          const query = await toDto(SearchQuery, args, { query: 'q', channel: 'channel', limit: 'limit', cursor: 'cursor' });
          return this.searches.search(query, by);
        },
      },
    ];
  }
}
