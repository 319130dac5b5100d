import { ApiPropertyOptional } from '@nestjs/swagger';
import { MESSAGE_TYPES } from '@qhorus/api';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { NotBlank } from '../../common/not-blank';
import { queryBool, queryInt } from '../../common/query-transforms';
import { MAX_AGENT_NAME_LENGTH, toTypeList, unknownTypes } from '../../messages/dto/list-messages.query';

/** Longest channel name (the slug rule's). */
const MAX_CHANNEL_NAME_LENGTH = 64;
/** Longest cursor accepted: a real one is about a hundred characters. */
const MAX_CURSOR_LENGTH = 512;

/** `GET /search`: full-text search over every channel the caller may read. */
export class SearchQuery {
  /**
   * What to look for, in web-search syntax: words (all must match), "a quoted phrase", `or`
   * between alternatives, `-word` to exclude. Its longest length is configured
   * (QHORUS_SEARCH_QUERY_MAX_CHARS).
   */
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
  @ApiPropertyOptional({ type: String, example: 'QUERY,RESPONSE', description: 'Only these types, a comma list (naming EVENT includes telemetry)' })
  @IsOptional()
  @Transform(toTypeList)
  @ArrayNotEmpty()
  @IsIn(MESSAGE_TYPES, { each: true, message: unknownTypes })
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

  /** Page size (default and maximum are configured). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Page size (default and maximum are configured: QHORUS_SEARCH_LIMIT_DEFAULT, QHORUS_SEARCH_LIMIT_MAX)' })
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
