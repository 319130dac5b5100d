import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_SUMMARY_VERSION } from './history.query';
import { NotBlank } from '../../common/not-blank';
import { ConfiguredMax } from '../../common/configured-limit';

export const MAX_SUMMARY_TEXT_LENGTH = 100_000;

/** Replaces the summary text by hand; annotations are kept and the watermark moves to lastSeq. */
export class OverrideSummaryDto {
  /** The new text; at most QHORUS_SUMMARY_TEXT_MAX_CHARS characters (default 4000), else a 400 naming `text` and the limit. */
  @ConfiguredMax('QHORUS_SUMMARY_TEXT_MAX_CHARS')
  @IsString()
  @NotBlank()
  @MaxLength(MAX_SUMMARY_TEXT_LENGTH)
  text: string;

  /** When set, the override applies only if the summary is still at this version (else 409); null is the same as not set. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SUMMARY_VERSION)
  expectedVersion?: number;
}
