import { OptionalField } from '../../common/optional-field';
import { MESSAGE_TYPES, MessageType, TARGET_REQUIRED_TYPES } from '@qhorus/api';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNotEmpty, IsObject, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { AGENT_NAME_PATTERN } from '../../auth/dto/register-agent.dto';
import { NotBlank } from '../../common/not-blank';

export const MAX_TOPIC_LENGTH = 128;
export const MAX_CORRELATION_ID_LENGTH = 128;
/** Types whose content may be empty: the type itself is the message. */
export const CONTENT_OPTIONAL_TYPES: ReadonlySet<MessageType> = new Set([MessageType.DONE, MessageType.HANDOFF, MessageType.EVENT]);
export const DEFAULT_MESSAGE_TYPE = MessageType.STATUS;
const TARGET_PROBLEM = 'target must be an agent name (required for HANDOFF)';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.toUpperCase() : value);
const typeOf = (o: PostMessageDto): MessageType => (o.type ?? DEFAULT_MESSAGE_TYPE) as MessageType;

export class PostMessageDto {
  /** One of QUERY, COMMAND, RESPONSE, STATUS (default), DECLINE, FAILURE, HANDOFF, DONE, EVENT. */
  @OptionalField()
  @Transform(upper)
  @IsIn(MESSAGE_TYPES, { message: `type must be one of ${MESSAGE_TYPES.join(', ')}` })
  type?: MessageType;

  /** The message text. Required except for DONE, HANDOFF and EVENT (where null and "" are the same as leaving it out); non-blank for DECLINE and FAILURE. */
  @ValidateIf((o) => (o.content !== undefined && o.content !== null && o.content !== '') || !CONTENT_OPTIONAL_TYPES.has(typeOf(o)))
  @IsString()
  @IsNotEmpty({ message: 'content is required for this message type' })
  @NotBlank()
  content?: string;

  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_TOPIC_LENGTH)
  topic?: string;

  /** Thread id; generated for QUERY and COMMAND when absent. */
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_CORRELATION_ID_LENGTH)
  correlationId?: string;

  /** The seq of the message this one answers. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER) // larger values lose precision in JSON numbers (and overflow bigint)
  inReplyTo?: number;

  /** The agent addressed; required for HANDOFF. */
  @ValidateIf((o) => o.target !== undefined || TARGET_REQUIRED_TYPES.has(typeOf(o)))
  @IsString({ message: TARGET_PROBLEM })
  @Matches(AGENT_NAME_PATTERN, { message: TARGET_PROBLEM })
  target?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;

  /** Optional; when present it must be the caller's own name. */
  @IsOptional()
  @IsString()
  sender?: string;
}
