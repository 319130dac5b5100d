import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);

export class InboxQuery {
  /** At most this many obligations, oldest first (default and maximum are configured). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  limit?: number;
}
