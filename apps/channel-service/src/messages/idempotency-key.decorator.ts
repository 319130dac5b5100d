import { BadRequestException, createParamDecorator, ExecutionContext } from '@nestjs/common';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The request's Idempotency-Key, or undefined. Sent more than once, it is a 400: Node joins
 * repeated headers with ", ", which would make two keys one key that neither names.
 */
export const IdempotencyKey = createParamDecorator((_data: unknown, ctx: ExecutionContext): string | undefined => {
  const request = ctx.switchToHttp().getRequest<{ headers: Record<string, string | undefined>; raw: { rawHeaders: string[] } }>();
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  const { rawHeaders } = request.raw;
  let sent = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === IDEMPOTENCY_HEADER) sent++;
  if (sent > 1) throw new BadRequestException(`Idempotency-Key was sent ${sent} times; send it once`);
  return key;
});
