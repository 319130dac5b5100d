import { Injectable, PipeTransform } from '@nestjs/common';
import { fieldProblem } from './validation.pipe';

/**
 * For routes that take no body (`@Body(NoBodyPipe)`): none, or `{}`; any field is a 400 naming
 * it, so a destructive route (a rebuild, a deletion) never runs on a request that meant something else.
 */
@Injectable()
export class NoBodyPipe implements PipeTransform<unknown, Record<string, never>> {
  transform(body: unknown): Record<string, never> {
    if (body === undefined || body === null) return {};
    if (typeof body !== 'object' || Array.isArray(body)) throw fieldProblem('body', 'must be empty: this route takes no body');
    for (const name in body) throw fieldProblem(name, 'is not a field of this route (it takes no body)');
    return {};
  }
}
