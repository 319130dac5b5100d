import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInt } from './query-transforms';

/** A page after a seq (messages: their seq; threads: their opened seq), oldest first. */
export class PageQuery {
  /** Only entries with seq greater than this (default 0). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER) // larger values lose precision in JSON numbers (and overflow bigint)
  afterSeq?: number;

  /** Page size (default and maximum are configured). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
