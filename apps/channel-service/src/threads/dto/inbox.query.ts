import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ConfiguredMax } from '../../common/configured-limit';
import { queryInt } from '../../common/query-transforms';


export class InboxQuery {
  /** At most this many obligations, oldest first (default QHORUS_PAGE_LIMIT_DEFAULT; above QHORUS_PAGE_LIMIT_MAX a 400 naming the maximum). */
  @ConfiguredMax('QHORUS_PAGE_LIMIT_MAX')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
