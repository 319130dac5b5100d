import { IsString } from 'class-validator';
import { NotBlank } from '../../common/not-blank';

/** `POST …/messages/{seq}/redact`: why the content must go (kept on the tombstone and in the audit log). */
export class RedactMessageDto {
  /** Why (at most QHORUS_REDACTION_REASON_MAX_CHARS characters). Never repeat the removed content here. */
  @IsString()
  @NotBlank()
  reason!: string;
}
