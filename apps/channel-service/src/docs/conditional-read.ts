import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';

/** The headers of a conditional read's 200 (DESIGN §6). */
export const ETAG_RESPONSE_HEADERS = {
  ETag: { description: 'Changes whenever this answer would; send it back in If-None-Match', schema: { type: 'string' } },
  'Cache-Control': { description: '`private, no-cache`: keep it, but revalidate with If-None-Match', schema: { type: 'string' } },
};

/** Documents `If-None-Match` and the 304 it can bring. */
export function ApiConditionalRead(): MethodDecorator {
  return applyDecorators(
    ApiHeader({ name: 'If-None-Match', required: false, description: 'An ETag from an earlier answer: 304 with no body while it is still current' }),
    ApiResponse({ status: 304, description: 'Not modified: the ETag sent in If-None-Match is still current (no body)', headers: ETAG_RESPONSE_HEADERS }),
  );
}
