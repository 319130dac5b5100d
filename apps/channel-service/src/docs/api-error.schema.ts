import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

export const API_ERROR_SCHEMA = 'ApiError';

/** The one error shape of the API (common/api-error.filter.ts), as an OpenAPI schema. */
export const apiErrorSchema: SchemaObject = {
  type: 'object',
  required: ['statusCode', 'error', 'message'],
  properties: {
    statusCode: { type: 'integer', description: 'The HTTP status, repeated', example: 400 },
    error: { type: 'string', description: 'The status text', example: 'Bad Request' },
    message: { type: 'string', description: 'What went wrong, in a sentence', example: 'Invalid request: summaryThreshold must not be less than 1' },
    details: {
      description: 'Structured detail when there is any, e.g. one entry per bad field',
      example: [{ field: 'summaryThreshold', problems: ['summaryThreshold must not be less than 1'] }],
    },
  },
};
