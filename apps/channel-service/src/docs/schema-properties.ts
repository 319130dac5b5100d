import type { ApiPropertyOptions } from '@nestjs/swagger';

/** Annotations and other string maps: an object whose every value is a string. */
export const STRING_MAP: ApiPropertyOptions = { type: 'object', additionalProperties: { type: 'string' } };
/** Free-form JSON a caller stored (message metadata): any JSON values. */
export const JSON_MAP: ApiPropertyOptions = { type: 'object', additionalProperties: true };
