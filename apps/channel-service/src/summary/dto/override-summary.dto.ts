import { IsInt, IsOptional, IsString, Matches, MaxLength, Min } from 'class-validator';

export const MAX_SUMMARY_TEXT_LENGTH = 100_000;

/** Replaces the summary text by hand; annotations are kept and the watermark moves to lastSeq. */
export class OverrideSummaryDto {
  /** The new text; at most QHORUS_SUMMARY_TEXT_MAX_CHARS characters (default 4000), else a 400 naming `text` and the limit. */
  @IsString()
  @Matches(/\S/, { message: 'text must not be blank' })
  @MaxLength(MAX_SUMMARY_TEXT_LENGTH)
  text: string;

  /** When set, the override applies only if the summary is still at this version (else 409). */
  @IsOptional()
  @IsInt()
  @Min(0)
  expectedVersion?: number;
}
