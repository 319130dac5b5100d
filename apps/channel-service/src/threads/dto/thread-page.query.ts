import { IsBoolean, IsOptional } from 'class-validator';
import { Transform } from 'class-transformer';
import { PageQuery } from '../../common/page.query';
import { queryBool } from '../../common/query-transforms';

/** A page of one thread's messages. */
export class ThreadPageQuery extends PageQuery {
  /** Include EVENT telemetry (hidden by default, as in every read of messages). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  includeEvents?: boolean;
}
