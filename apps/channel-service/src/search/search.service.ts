import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { MessageType } from '@qhorus/api';
import { Principal } from '../auth/principal';
import { accessParams } from '../channels/channel-access';
import { ChannelsService } from '../channels/channels.service';
import { assertConfiguredLimits } from '../common/configured-limit';
import { fieldProblem } from '../common/validation.pipe';
import { RequestLimitsConfig } from '../config/slices/request-limits-config';
import { SearchConfig } from '../config/slices/search-config';
import { SearchQuery } from './dto/search.query';
import { SearchResponse, SearchResultResponse } from './dto/search.response';
import { decodeCursor, encodeCursor, searchFingerprint } from './search-cursor';
import { boundSnippet } from './search-snippet';
import { SearchRepository, SearchRow } from './search.repository';

/** What `querytree` answers for a query no index can serve (only excluded words). */
const NOT_INDEXABLE = 'T';

/**
 * Full-text search (DESIGN §12) over every channel the caller may read, or one of them: the
 * query is parsed in the recorded configuration, then ranked and paged in one statement.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly channels: ChannelsService,
    private readonly repository: SearchRepository,
    private readonly config: SearchConfig,
    private readonly limits: RequestLimitsConfig,
  ) {}

  async search(query: SearchQuery, by: Principal): Promise<SearchResponse> {
    assertConfiguredLimits(query, this.limits); // q's length and limit: a 400 naming the setting, never a cut
    const q = query.q.trim();
    const types = query.type ?? null;
    const sender = query.sender ?? null;
    const includeEvents = query.includeEvents === true || (types?.includes(MessageType.EVENT) ?? false);
    const fingerprint = searchFingerprint([q, query.channel ?? null, types, sender, includeEvents]);
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor, fingerprint);
    await this.checkParses(q);
    // A channel filter the caller may not read is a 404, as everywhere (the same rule as every read).
    const channel = query.channel === undefined ? null : await this.channels.get(query.channel, by);
    const limit = query.limit ?? this.config.limitDefault;
    // One more than the page: a next page exists only if it came back (no cursor to an empty page).
    const rows = await this.repository.search(accessParams(by), { q, types, sender, includeEvents, after, limit: limit + 1 }, channel?.id ?? null);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = rows.length > limit ? encodeCursor({ rank: last.rank, channel: last.channel, seq: Number(last.seq) }, fingerprint) : null;
    return { results: page.map((r) => this.resultView(r)), nextCursor };
  }

  private async checkParses(q: string): Promise<void> {
    const parsed = await this.repository.parse(q);
    if (!parsed.configured) throw new ServiceUnavailableException('Search is not ready yet: the service is still recording its text-search configuration');
    if (parsed.nodes === 0) throw fieldProblem('q', 'has no word to search for (only punctuation, or words the text-search configuration ignores)');
    if (parsed.indexable === NOT_INDEXABLE) throw fieldProblem('q', 'has only excluded words (-word): add a word to look for');
  }

  private resultView(r: SearchRow): SearchResultResponse {
    return {
      channel: r.channel,
      seq: Number(r.seq),
      sender: r.sender,
      type: r.type as MessageType,
      topic: r.topic,
      createdAt: r.created_at,
      snippet: boundSnippet(r.snippet, this.config.snippetMaxChars),
      rank: Number(r.rank),
    };
  }
}
