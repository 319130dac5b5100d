import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { queryInt } from '../../common/query-transforms';

export class DeliveriesQuery {
  /** At most this many attempts, newest first (default and maximum: the attempts kept, QHORUS_WEBHOOK_LOG_KEEP). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
