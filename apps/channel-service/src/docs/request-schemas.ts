import type { OpenAPIObject, ParameterObject, RequestBodyObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../common/idempotency-key';
import { operationsOf } from './error-responses';
import type { RouteDtos } from './route-dtos';
import { deriveSchema, DerivedProperty, DtoClass, SettingValue } from './validation-schema';

/** What the swagger scanner (and the CLI plugin's comments) said that the rules do not: kept. */
const KEPT_KEYS = ['description', 'example', 'default', 'deprecated', 'title'] as const;

function keptFrom(existing: Record<string, unknown> | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of KEPT_KEYS) if (existing?.[key] !== undefined) kept[key] = existing[key];
  return kept;
}

const JSON_TYPE = 'application/json';

/**
 * Makes every request body and query of the document what the ValidationPipe checks: each
 * route's body DTO (and the DTOs nested in it) becomes a closed object schema
 * (`additionalProperties: false`: unknown fields are refused) whose properties, types, bounds,
 * patterns, enums, nullability and required list are derived from the class-validator rules;
 * each query DTO becomes its query parameters the same way. Descriptions and examples the
 * scanner found are kept. Returns the rules it could not state (the mismatch test fails on any).
 */
export function documentRequestSchemas(document: OpenAPIObject, dtosById: Map<string, RouteDtos>, setting: SettingValue): string[] {
  const problems: string[] = [];
  const schemas = (document.components ??= {}).schemas ??= {};
  const written = new Map<string, DtoClass>();

  const writeBody = (dto: DtoClass): void => {
    const seen = written.get(dto.name);
    if (seen === dto) return;
    if (seen) problems.push(`two DTO classes are named ${dto.name}: the document can hold only one schema of that name`);
    written.set(dto.name, dto);
    const derived = deriveSchema(dto, setting);
    problems.push(...derived.problems);
    const existing = (schemas[dto.name] ?? {}) as SchemaObject;
    const properties: Record<string, SchemaObject> = {};
    for (const [name, property] of Object.entries(derived.properties)) {
      properties[name] = { ...keptFrom(existing.properties?.[name] as Record<string, unknown>), ...property.schema };
      if (property.nested) writeBody(property.nested);
    }
    const required = Object.entries(derived.properties).filter(([, p]) => p.required).map(([name]) => name);
    schemas[dto.name] = { ...keptFrom(existing as Record<string, unknown>), type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  };

  for (const { operation } of operationsOf(document)) {
    const dtos = dtosById.get(operation.operationId ?? '');
    if (!dtos) continue;
    if (dtos.body) {
      writeBody(dtos.body);
      const body = (operation.requestBody ?? { required: true, content: {} }) as RequestBodyObject;
      body.required = true;
      body.content[JSON_TYPE] = { ...body.content[JSON_TYPE], schema: { $ref: `#/components/schemas/${dtos.body.name}` } };
      operation.requestBody = body;
    }
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      const schema = parameter.in === 'header' ? HEADER_SCHEMAS[parameter.name.toLowerCase()] : undefined;
      if (schema) parameter.schema = { ...schema };
    }
    if (dtos.query) {
      const derived = deriveSchema(dtos.query, setting);
      problems.push(...derived.problems);
      const params = (operation.parameters ?? []) as ParameterObject[];
      const existing = new Map(params.filter((p) => p.in === 'query').map((p) => [p.name, p]));
      const query = Object.entries(derived.properties).map(([name, property]) => queryParameter(name, property, existing.get(name)));
      operation.parameters = [...params.filter((p) => p.in !== 'query'), ...query];
    }
  }
  return problems;
}

/** Request headers read by name, as the handlers check them (any route that documents one gets this schema). */
const HEADER_SCHEMAS: Record<string, SchemaObject> = {
  'idempotency-key': {
    type: 'string',
    minLength: 1,
    maxLength: MAX_IDEMPOTENCY_KEY_LENGTH,
    description: `1-${MAX_IDEMPOTENCY_KEY_LENGTH} characters (a batch keys message i as \`<key>:<i>\`, which must fit too); sent once`,
  },
};

/** A query DTO property as a query parameter: a list is a comma list (`type=QUERY,COMMAND`); null cannot be sent. */
function queryParameter(name: string, property: DerivedProperty, existing: ParameterObject | undefined): ParameterObject {
  const { nullable: _nullable, ...schema } = property.schema as SchemaObject;
  const parameter: ParameterObject = { name, in: 'query', required: property.required, ...keptFrom(existing as unknown as Record<string, unknown>), schema };
  if (schema.type === 'array') Object.assign(parameter, { style: 'form', explode: false });
  if (existing?.schema && 'description' in existing.schema && !parameter.description) parameter.description = String(existing.schema.description);
  return parameter;
}
