import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { AGENT_NAME_PATTERN } from '../../auth/dto/register-agent.dto';
import { CONTEXT_FORMATS, ContextFormat } from '../context-format';
import { MAX_CONTEXT_MAX_TOKENS, MAX_KEEP_LAST, MIN_CONTEXT_MAX_TOKENS } from '../projection-limits';
import { DependsOn } from '../../common/depends-on';
import { queryInt } from '../../common/query-transforms';

/** `GET …/context`: the channel as a prompt. */
export class ContextQuery {
  /** Whose point of view: their messages become `assistant` turns (default: the caller). */
  @IsOptional()
  @IsString()
  @Matches(AGENT_NAME_PATTERN, { message: 'viewer must be an agent name' })
  viewer?: string;

  /**
   * How many of the newest messages are always verbatim (default 10, fewer if maxTokens is small).
   * An explicit keepLast must fit maxTokens: otherwise a 400 naming both and what would fit.
   */
  @DependsOn('maxTokens')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(0)
  @Max(MAX_KEEP_LAST)
  keepLast?: number;

  /** Token budget of the whole projection (default 4000); it must hold an explicit keepLast (see keepLast). */
  @DependsOn('keepLast')
  @IsOptional()
  @Transform(queryInt)
  @IsInt()
  @Min(MIN_CONTEXT_MAX_TOKENS)
  @Max(MAX_CONTEXT_MAX_TOKENS)
  maxTokens?: number;

  /** anthropic (default), openai or text. */
  @IsOptional()
  @IsIn(CONTEXT_FORMATS, { message: `format must be one of ${CONTEXT_FORMATS.join(', ')}` })
  format?: ContextFormat;
}
