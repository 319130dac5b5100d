import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

const toBool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class EventsQuery {
  /** Also stream EVENT telemetry messages (hidden by default, as in reads). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  includeEvents?: boolean;
}
