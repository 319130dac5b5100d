import { Injectable, PipeTransform } from '@nestjs/common';
import { fieldProblem } from '../common/validation.pipe';

/** A message seq in a path: a positive decimal integer within JSON's exact range (a 400 naming `seq` otherwise). */
@Injectable()
export class SeqParamPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    const seq = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(seq) || seq < 1) throw fieldProblem('seq', 'must be a positive integer (a message seq)');
    return seq;
  }
}
