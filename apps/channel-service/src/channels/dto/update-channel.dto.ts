import { Type } from 'class-transformer';
import { ApiProperty } from '@nestjs/swagger';
import { OptionalField } from '../../common/optional-field';
import { RetentionDto } from './retention.dto';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { AGENT_NAME_PATTERN } from '../../auth/dto/register-agent.dto';
import { MAX_DESCRIPTION_LENGTH, MAX_MEMBERS, MAX_SUMMARISER_NAME_LENGTH, MAX_SUMMARY_THRESHOLD, MAX_SUMMARY_THRESHOLD_TOKENS, MAX_UPDATE_AFTER_SECONDS } from './channel-name';

/** Reconfigures a channel; `null` clears description, summaryThresholdTokens, updateAfterSeconds or members. */
export class UpdateChannelDto {
  @ValidateIf((o) => o.description !== null)
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string | null;

  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(MAX_SUMMARY_THRESHOLD)
  summaryThreshold?: number;

  /** Token trigger (estimated tokens waiting after the watermark); null turns it off. */
  @ValidateIf((o) => o.summaryThresholdTokens !== null)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SUMMARY_THRESHOLD_TOKENS)
  summaryThresholdTokens?: number | null;

  @ValidateIf((o) => o.updateAfterSeconds !== null)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_UPDATE_AFTER_SECONDS)
  updateAfterSeconds?: number | null;

  @OptionalField()
  @IsString()
  @MaxLength(MAX_SUMMARISER_NAME_LENGTH)
  summariser?: string;

  /** Retention bounds (DESIGN §10); null: kept for ever. Fields left out keep their value (on create: the deployment default). */
  @ApiProperty({ type: () => RetentionDto, nullable: true, required: false })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetentionDto)
  retention?: RetentionDto | null;

  @ValidateIf((o) => o.members !== null)
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS)
  @Matches(AGENT_NAME_PATTERN, { each: true, message: 'each member must be an agent name' })
  members?: string[] | null;
}
