import { Type } from 'class-transformer';
import { ApiProperty } from '@nestjs/swagger';
import { OptionalField } from '../../common/optional-field';
import { RetentionDto } from './retention.dto';
import { ArrayMaxSize, IsArray, IsInt, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { AGENT_NAME_PATTERN } from '../../auth/dto/register-agent.dto';
import {
  CHANNEL_NAME_PATTERN,
  CHANNEL_NAME_RULE,
  MAX_DESCRIPTION_LENGTH,
  MAX_MEMBERS,
  MAX_SUMMARISER_NAME_LENGTH,
  MAX_SUMMARY_THRESHOLD,
  MAX_SUMMARY_THRESHOLD_TOKENS,
  MAX_UPDATE_AFTER_SECONDS,
} from './channel-name';

export class CreateChannelDto {
  /** Unique slug naming the channel. */
  @IsString()
  @Matches(CHANNEL_NAME_PATTERN, { message: `name must be ${CHANNEL_NAME_RULE}` })
  name: string;

  /** What the channel is for; grounds the LLM summariser. */
  @IsOptional()
  @IsString()
  @MaxLength(MAX_DESCRIPTION_LENGTH)
  description?: string;

  /** Unsummarised messages that trigger a summary update (default QHORUS_SUMMARY_THRESHOLD). */
  @OptionalField()
  @IsInt()
  @Min(1)
  @Max(MAX_SUMMARY_THRESHOLD)
  summaryThreshold?: number;

  /**
   * Also trigger a summary update once the unsummarised messages reach this many estimated tokens
   * (as a projection shows them), whichever of the two thresholds comes first. null or absent: off.
   */
  @ValidateIf((o) => o.summaryThresholdTokens !== null)
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_SUMMARY_THRESHOLD_TOKENS)
  summaryThresholdTokens?: number | null;

  /** Also update the summary when this many seconds pass with unsummarised messages. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_UPDATE_AFTER_SECONDS)
  updateAfterSeconds?: number;

  /** Summariser strategy: heuristic (default), verbatim, tiered, llm, or a registered name. */
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

  /** Makes the channel private to these agents (and the admin). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS)
  @Matches(AGENT_NAME_PATTERN, { each: true, message: 'each member must be an agent name' })
  members?: string[];
}
