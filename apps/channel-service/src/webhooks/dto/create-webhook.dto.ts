import { MESSAGE_TYPES, MessageType } from '@qhorus/api';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength, ValidationArguments } from 'class-validator';
import { CHANNEL_NAME_PATTERN, CHANNEL_NAME_RULE, MAX_MEMBERS } from '../../channels/dto/channel-name';
import { WEBHOOK_EVENTS } from '../webhook.entity';

export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** The types a hook may filter on: EVENT telemetry is never announced. */
export const ANNOUNCED_TYPES = MESSAGE_TYPES.filter((t) => t !== MessageType.EVENT);

/** Names the entries of a list that are not among `known` (a list-level IsIn says only "each value must be one of"). */
const unknownIn = (what: string, known: readonly string[]) => (args: ValidationArguments) => {
  const bad = (Array.isArray(args.value) ? args.value : [args.value]).filter((v: unknown) => !known.includes(v as string));
  return `${args.property} has unknown ${what} ${bad.map((v: unknown) => `'${String(v)}'`).join(', ')} (known: ${known.join(', ')})`;
};

export class CreateWebhookDto {
  /** Where events are POSTed: http or https, a host that resolves to a public address (or one QHORUS_WEBHOOK_ALLOWED_HOSTS allows). */
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url: string;

  /** What to be told about (at least one). */
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] }, minItems: 1 })
  @IsArray()
  @ArrayMinSize(1, { message: `events must name at least one of ${WEBHOOK_EVENTS.join(', ')}` })
  @ArrayMaxSize(WEBHOOK_EVENTS.length * 2)
  @IsIn(WEBHOOK_EVENTS, { each: true, message: unknownIn('event', WEBHOOK_EVENTS) })
  events: string[];

  /** Only events of these channels (default: every channel the owner may read). */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBERS)
  @Matches(CHANNEL_NAME_PATTERN, { each: true, message: `each channel must be ${CHANNEL_NAME_RULE}` })
  channels?: string[];

  /** message.posted only for these message types (default: every type but EVENT). */
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ANNOUNCED_TYPES }, required: false })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(ANNOUNCED_TYPES.length)
  @IsIn(ANNOUNCED_TYPES, { each: true, message: unknownIn('type', ANNOUNCED_TYPES) })
  types?: string[];
}
