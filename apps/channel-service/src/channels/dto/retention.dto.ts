import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_RETENTION_DAYS } from '../../config/config-defaults';

/** The most messages a count bound may keep (Postgres integer). */
export const MAX_RETENTION_MESSAGES = 1_000_000_000;

/**
 * A channel's retention (DESIGN §10): messages past either bound are removed once the summary
 * covers them. A field left out keeps its current value (on create: the deployment default for
 * `maxAgeDays`, none for `maxMessages`); `null` removes that bound.
 */
export class RetentionDto {
  @ApiProperty({ type: 'integer', nullable: true, required: false, minimum: 1, maximum: MAX_RETENTION_DAYS, description: 'Messages older than this many days go (null: no age bound)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  maxAgeDays?: number | null;

  @ApiProperty({ type: 'integer', nullable: true, required: false, minimum: 1, maximum: MAX_RETENTION_MESSAGES, description: 'Only the newest this many messages are kept (null: no count bound)' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_MESSAGES)
  maxMessages?: number | null;
}
