import type { operations } from './generated/openapi';
import type { OperationId } from './generated/operations';

/** Types of one operation of the generated document, by operationId. */
type Operation<K extends OperationId> = operations[K];
type SuccessStatus = 200 | 201 | 202 | 204;
type ContentOf<R> = R extends { content: infer C } ? (C extends Record<string, infer B> ? B : undefined) : undefined;

/** What a successful call answers (the JSON of its 2xx answer; text for text/plain). */
export type OperationResult<K extends OperationId> = ContentOf<Operation<K>['responses'][Extract<keyof Operation<K>['responses'], SuccessStatus>]>;

type Parameters<K extends OperationId> = Operation<K>['parameters'];
type Part<K extends OperationId, P extends 'path' | 'query'> = Parameters<K> extends { [k in P]?: infer X } ? Exclude<X, undefined> : never;
type BodyOf<K extends OperationId> = Operation<K>['requestBody'] extends { content: { 'application/json': infer B } } | undefined ? B : never;

/** The arguments of a call: path and query parameters, the JSON body, extra headers. */
export interface CallArgs<K extends OperationId> {
  path?: Part<K, 'path'>;
  query?: Part<K, 'query'>;
  body?: BodyOf<K>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** This call's timeout instead of the client's (a long poll waits longer). */
  timeoutMs?: number;
}
