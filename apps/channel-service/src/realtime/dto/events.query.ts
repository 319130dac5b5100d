import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { queryBool, queryInt } from '../../common/query-transforms';


export class EventsQuery {
  /** Also stream EVENT telemetry messages (hidden by default, as in reads). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  includeEvents?: boolean;

  /** Replay every message after this seq first (as a Last-Event-ID would; the header wins when both are sent). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  afterSeq?: number;
}
