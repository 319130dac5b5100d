import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { queryBool } from '../../common/query-transforms';

/** `GET /channels`: archived channels are left out unless asked for. */
export class ListChannelsQuery {
  /** true: archived channels are listed too (default false). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  archived?: boolean;
}
