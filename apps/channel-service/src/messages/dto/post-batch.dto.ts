import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsObject, ValidateNested } from 'class-validator';
import { PostMessageDto } from './post-message.dto';

/** Several messages posted at once, all or nothing, with consecutive seqs. */
export class PostBatchDto {
  /** The messages, in the order they get their seqs; at most QHORUS_BATCH_MAX_MESSAGES (413 beyond). */
  @IsArray()
  @ArrayNotEmpty()
  // ValidateNested alone lets an array in place of a message through (its items are validated instead).
  @IsObject({ each: true, message: 'each message must be an object' })
  @ValidateNested({ each: true })
  @Type(() => PostMessageDto)
  messages: PostMessageDto[];
}
