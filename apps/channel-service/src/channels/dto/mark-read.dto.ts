import { IsInt, Max, Min } from 'class-validator';

export class MarkReadDto {
  /** Every message up to and including this seq is read (at most the channel's lastSeq). */
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  throughSeq!: number;
}
