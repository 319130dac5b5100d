import { ApiProperty } from '@nestjs/swagger';
import { MessageType } from '@qhorus/api';

/** One message that matched, as search shows it. */
export class SearchResultResponse {
  channel: string;
  @ApiProperty({ type: 'integer', description: 'Position in the channel' })
  seq: number;
  sender: string;
  @ApiProperty({ enum: MessageType, enumName: 'MessageType' })
  type: MessageType;
  topic: string;
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: Date;
  /** The content around the matches, each match between « and », fragments joined by " … " (bounded: QHORUS_SEARCH_SNIPPET_MAX_CHARS). */
  snippet: string;
  /** Relevance (ts_rank_cd): higher is better; comparable only within one search. */
  @ApiProperty({ type: Number, format: 'float', minimum: 0 })
  rank: number;
}

/** A page of search results, best first. */
export class SearchResponse {
  @ApiProperty({ type: () => [SearchResultResponse] })
  results: SearchResultResponse[];
  /** Pass as `cursor` for the next page of the same search; null on the last page. */
  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}
