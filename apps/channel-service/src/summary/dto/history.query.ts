import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryInt } from '../../common/query-transforms';

export const DEFAULT_HISTORY_LIMIT = 50;
export const MAX_HISTORY_LIMIT = 1000;
/** Versions are Postgres integers. */
export const MAX_SUMMARY_VERSION = 2_147_483_647;

/** Digits become a number; anything else is left for the validators to refuse by name. */

export class HistoryQuery {
  /** Versions per page (newest first). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  @Max(MAX_HISTORY_LIMIT)
  limit?: number;

  /** Only versions older than this one: pass the smallest version of the previous page. */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  @Max(MAX_SUMMARY_VERSION)
  beforeVersion?: number;
}
