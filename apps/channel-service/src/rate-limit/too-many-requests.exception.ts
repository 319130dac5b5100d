import { HttpException, HttpStatus } from '@nestjs/common';

/** 429 with `Retry-After`; ApiErrorFilter copies `headers` onto the reply. */
export class TooManyRequestsException extends HttpException {
  readonly headers: Record<string, string>;

  /** `message` replaces the per-agent rate limit's wording (other limits name themselves). */
  constructor(principal: string, retryAfterSeconds: number, message?: string) {
    super(message ?? `Rate limit exceeded for '${principal}' (QHORUS_RATE_LIMIT_PER_SECOND, QHORUS_RATE_LIMIT_BURST): retry after ${retryAfterSeconds} s`, HttpStatus.TOO_MANY_REQUESTS);
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}
