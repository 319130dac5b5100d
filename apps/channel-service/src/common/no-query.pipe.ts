import { Injectable, PipeTransform } from '@nestjs/common';
import { fieldProblem } from './validation.pipe';

/** What a route that takes no query parameters receives: nothing. */
export type NoQuery = Record<string, never>;

/**
 * For routes that take no query parameters (`@Query(NoQueryPipe)`): any is a 400 naming it, as
 * routes with a query DTO answer an unknown one, so a misspelt `?limt=5` is never silently ignored.
 */
@Injectable()
export class NoQueryPipe implements PipeTransform<Record<string, unknown>, NoQuery> {
  transform(query: Record<string, unknown>): NoQuery {
    for (const name in query) throw fieldProblem(name, 'is not a query parameter of this route (it takes none)');
    return {};
  }
}
