import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ConfiguredMax } from '../../common/configured-limit';
import { queryInt } from '../../common/query-transforms';

/** A page of the audit log after an entry id, oldest first. */
export class AuditQuery {
  /** Only entries with id greater than this: pass the last id of the previous page (default 0). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER) // larger values lose precision in JSON numbers
  after?: number;

  /** Page size (default QHORUS_PAGE_LIMIT_DEFAULT; above QHORUS_PAGE_LIMIT_MAX a 400 naming the maximum). */
  @ConfiguredMax('QHORUS_PAGE_LIMIT_MAX')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
