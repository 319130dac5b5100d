import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { MESSAGE_TYPES } from '@qhorus/api';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidationArguments } from 'class-validator';
import { MAX_CORRELATION_ID_LENGTH, MAX_TOPIC_LENGTH } from './post-message.dto';
import { ConfiguredMax } from '../../common/configured-limit';
import { PageQuery } from '../../common/page.query';
import { queryBool, queryInt } from '../../common/query-transforms';
import { NotBlank } from '../../common/not-blank';

/** `type=QUERY,command` → ['QUERY', 'COMMAND'] (as a post accepts any case). MCP may pass an array. */
export const toTypeList = ({ value }: { value: unknown }) => {
  const parts = typeof value === 'string' ? value.split(',') : value;
  return Array.isArray(parts) ? parts.map((p) => (typeof p === 'string' ? p.trim().toUpperCase() : p)) : parts;
};
export const unknownTypes = (args: ValidationArguments) => {
  const bad = (Array.isArray(args.value) ? args.value : [args.value]).filter((t) => !MESSAGE_TYPES.includes(t));
  return `type: unknown message type ${bad.map((t) => `'${String(t)}'`).join(', ')}; known types: ${MESSAGE_TYPES.join(', ')}`;
};
/** The longest agent name a sender or target filter can match. */
export const MAX_AGENT_NAME_LENGTH = 64;

/** A `type` query filter: a comma list of message types, one rule for every route that takes it. */
export function MessageTypeFilter(example: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, example, description: 'Only these types, a comma list (naming EVENT includes telemetry)' }),
    IsOptional(),
    Transform(toTypeList),
    ArrayNotEmpty(),
    IsIn(MESSAGE_TYPES, { each: true, message: unknownTypes }),
  );
}

/**
 * Reading a channel's messages (every page in ascending seq): forwards after `afterSeq`, or the
 * newest ones with `tail` / before `beforeSeq`; filtered; and, with `waitMs`, as a long poll.
 */
export class ListMessagesQuery extends PageQuery {
  /** Only messages with seq less than this; the page is then the newest `limit` of them (still ascending). */
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  beforeSeq?: number;

  /** The newest N matching messages (before `beforeSeq` when given), ascending; at most QHORUS_PAGE_LIMIT_MAX, like `limit`. */
  @ConfiguredMax('QHORUS_PAGE_LIMIT_MAX')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(1)
  tail?: number;

  /** Include EVENT telemetry (hidden by default). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  includeEvents?: boolean;

  /** Only these types: a comma list such as `QUERY,COMMAND` (naming EVENT includes telemetry). */
  @MessageTypeFilter('QUERY,COMMAND')
  type?: string[];

  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_TOPIC_LENGTH)
  topic?: string;

  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_AGENT_NAME_LENGTH)
  sender?: string;

  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_CORRELATION_ID_LENGTH)
  correlationId?: string;

  /** Only messages addressed to this agent. */
  @IsOptional()
  @IsString()
  @NotBlank()
  @MaxLength(MAX_AGENT_NAME_LENGTH)
  target?: string;

  /** Long poll: with nothing after `afterSeq` yet, wait up to this long (ms; at most QHORUS_LONG_POLL_MAX_MS). */
  @ConfiguredMax('QHORUS_LONG_POLL_MAX_MS')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(0)
  waitMs?: number;

  /** Start after the caller's read cursor (or `afterSeq`, whichever is later). */
  @IsOptional()
  @Transform(queryBool)
  @IsBoolean()
  unreadOnly?: boolean;
}
