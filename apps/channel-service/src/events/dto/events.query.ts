import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class EventsQuery {
  /** Also stream EVENT telemetry messages (hidden by default, as in reads). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  includeEvents?: boolean;

  /** Replay every message after this seq first (as a Last-Event-ID would; the header wins when both are sent). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  afterSeq?: number;
}
