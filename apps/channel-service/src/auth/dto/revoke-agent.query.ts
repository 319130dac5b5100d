import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { queryBool } from '../../common/query-transforms';

export class RevokeAgentQuery {
  /** Also redact every message the agent sent (audited; each batch all or nothing). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  erase?: boolean;
}
