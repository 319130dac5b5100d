import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ConfiguredMax } from './configured-limit';
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

  /** Page size (default QHORUS_PAGE_LIMIT_DEFAULT; above QHORUS_PAGE_LIMIT_MAX a 400 naming the maximum). */
  @ConfiguredMax('QHORUS_PAGE_LIMIT_MAX')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
