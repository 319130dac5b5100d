import type { OpenAPIObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** The formats that mark a number as fractional on purpose (`@ApiProperty({ type: 'number', format: 'double' })`). */
export const FRACTIONAL_FORMATS: ReadonlySet<string> = new Set(['double', 'float']);

function integerise(schema: unknown): void {
  if (!schema || typeof schema !== 'object') return;
  const s = schema as SchemaObject & Record<string, unknown>;
  if (s.type === 'number' && !FRACTIONAL_FORMATS.has(s.format ?? '')) s.type = 'integer';
  for (const child of Object.values(s.properties ?? {})) integerise(child);
  integerise(s.items);
  integerise(s.additionalProperties);
  for (const list of [s.allOf, s.oneOf, s.anyOf]) for (const child of list ?? []) integerise(child);
}

/**
 * Every number this API answers with is a whole number (seqs, counts, versions, seconds,
 * tokens): a TypeScript `number` the scanner calls `number` is an `integer` in the document,
 * so a client generated in any language gets an integer type. A fractional field says so with
 * `format: 'double'` (or 'float'). Request schemas are derived from their rules instead
 * (request-schemas.ts), where IsInt is what makes an integer.
 */
export function documentIntegerNumbers(document: OpenAPIObject): void {
  for (const schema of Object.values(document.components?.schemas ?? {})) integerise(schema);
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const responses = (operation as { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }).responses;
      for (const response of Object.values(responses ?? {})) for (const media of Object.values(response.content ?? {})) integerise(media.schema);
    }
  }
}
