import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

const toInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value);
const toBool = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class ListMessagesQuery {
  /** Only messages with seq greater than this (default 0). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER) // larger values lose precision in JSON numbers (and overflow bigint)
  afterSeq?: number;

  /** Page size (default and maximum are configured). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  limit?: number;

  /** Include EVENT telemetry (hidden by default). */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  includeEvents?: boolean;
}
