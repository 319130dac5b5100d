import { HttpException, HttpStatus } from '@nestjs/common';

/** 429 with `Retry-After`; ApiErrorFilter copies `headers` onto the reply. */
export class TooManyRequestsException extends HttpException {
  readonly headers: Record<string, string>;

  constructor(principal: string, retryAfterSeconds: number) {
    super(
      `Rate limit exceeded for '${principal}': retry after ${retryAfterSeconds} s`,
      HttpStatus.TOO_MANY_REQUESTS,
    );
    this.headers = { 'retry-after': String(retryAfterSeconds) };
  }
}
