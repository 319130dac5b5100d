import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { queryInt } from '../../common/query-transforms';


export class InboxQuery {
  /** At most this many obligations, oldest first (default and maximum are configured). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
