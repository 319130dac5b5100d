import { BadRequestException } from '@nestjs/common';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { apiValidationPipe } from '../../src/common/validation.pipe';

class CursorDto {
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  throughSeq!: number;

  @IsOptional()
  @IsString()
  @MaxLength(5)
  note?: string;
}

async function problems(body: unknown): Promise<Record<string, string[]>> {
  const error = await apiValidationPipe()
    .transform(body, { type: 'body', metatype: CursorDto, data: '' })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BadRequestException);
  const details = (error as BadRequestException).getResponse() as { details: { field: string; problems: string[] }[] };
  return Object.fromEntries(details.details.map((d) => [d.field, d.problems]));
}

describe('validation messages', () => {
  it('a value of the wrong type is told its type only, not the ranges it does not break', async () => {
    expect(await problems({ throughSeq: '3' })).toEqual({ throughSeq: ['throughSeq must be an integer number'] });
    expect(await problems({})).toEqual({ throughSeq: ['throughSeq must be an integer number'] });
    expect(await problems({ throughSeq: 1, note: 12345678 })).toEqual({ note: ['note must be a string'] });
  });

  it('a value of the right type out of range is told the range', async () => {
    expect(await problems({ throughSeq: -1 })).toEqual({ throughSeq: ['throughSeq must not be less than 0'] });
    expect(await problems({ throughSeq: 1, note: 'far too long' })).toEqual({ note: ['note must be shorter than or equal to 5 characters'] });
  });
});
