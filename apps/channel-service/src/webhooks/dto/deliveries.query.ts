import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ConfiguredMax } from '../../common/configured-limit';
import { queryInt } from '../../common/query-transforms';

export class DeliveriesQuery {
  /** At most this many attempts, newest first (default: the attempts kept, QHORUS_WEBHOOK_LOG_KEEP; above it a 400 naming the maximum). */
  @ConfiguredMax('QHORUS_WEBHOOK_LOG_KEEP')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
