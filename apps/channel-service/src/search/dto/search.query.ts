import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { ConfiguredMax } from '../../common/configured-limit';
import { NotBlank } from '../../common/not-blank';
import { queryBool, queryInt } from '../../common/query-transforms';
import { MAX_CHANNEL_NAME_LENGTH } from '../../channels/dto/channel-name';
import { MAX_AGENT_NAME_LENGTH, MessageTypeFilter } from '../../messages/dto/list-messages.query';

/** Longest cursor accepted: a real one is about a hundred characters. */
const MAX_CURSOR_LENGTH = 512;

/** `GET /search`: full-text search over every channel the caller may read. */
export class SearchQuery {
  /**
   * What to look for, in web-search syntax: words (all must match), "a quoted phrase", `or`
   * between alternatives, `-word` to exclude. Its longest length is configured
   * (QHORUS_SEARCH_QUERY_MAX_CHARS).
   */
  @ConfiguredMax('QHORUS_SEARCH_QUERY_MAX_CHARS')
  @IsString()
  @NotBlank()
  q: string;

  /** Only this channel (404 when the caller may not read it). */
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_CHANNEL_NAME_LENGTH)
  channel?: string;

  /** Only these types: a comma list such as `QUERY,RESPONSE` (naming EVENT includes telemetry). */
  @MessageTypeFilter('QUERY,RESPONSE')
  type?: string[];

  /** Only messages from this agent. */
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_AGENT_NAME_LENGTH)
  sender?: string;

  /** Include EVENT telemetry (hidden by default). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  includeEvents?: boolean;

  /** Page size (default QHORUS_SEARCH_LIMIT_DEFAULT; above QHORUS_SEARCH_LIMIT_MAX a 400 naming the maximum). */
  @ConfiguredMax('QHORUS_SEARCH_LIMIT_MAX')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;

  /** The `nextCursor` of the previous page of the same search. */
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;
}
