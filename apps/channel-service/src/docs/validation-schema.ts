import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { configuredLimitsOf } from '../common/configured-limit';
import { statedDependenciesOf } from '../common/depends-on';
import { LimitSetting } from '../config/slices/request-limits-config';

// class-transformer keeps @Type() in this storage and exports no typed path to it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

type Condition = (object: Record<string, unknown>, value: unknown) => boolean;
/** A DTO class. */
export type DtoClass = abstract new (...args: never[]) => object;
/** The configured value of a setting (for bounds set by the deployment, see ConfiguredMax). */
export type SettingValue = (setting: LimitSetting) => number;

/** One property as the validation rules state it. */
export interface DerivedProperty {
  schema: SchemaObject & Partial<ReferenceObject>;
  required: boolean;
  /** Other fields its rules depend on (e.g. `content` on `type`): whether it is required is up to them. */
  dependsOn: string[];
  /** A nested DTO the property holds (ValidateNested + @Type). */
  nested?: DtoClass;
}

export interface DerivedSchema {
  properties: Record<string, DerivedProperty>;
  /** Rules that have no OpenAPI counterpart here: each one is a drift the mismatch test reports. */
  problems: string[];
}

/** The schema extension naming the fields a property's rules depend on. */
export const DEPENDS_ON = 'x-depends-on';

/** `a` and `b` both match (search semantics, as ECMA 262 patterns in OpenAPI): one pattern for two rules. */
const bothPatterns = (a: string, b: string): string => `^(?=[\\s\\S]*?(?:${a}))(?=[\\s\\S]*?(?:${b}))`;

function patternOf(constraints: unknown[]): string | null {
  const [pattern, modifiers] = constraints;
  if (pattern instanceof RegExp) return pattern.flags.replace(/[gu]/g, '') === '' ? pattern.source : null;
  return typeof pattern === 'string' && !modifiers ? pattern : null;
}

/** Applies one class-validator rule to `schema`; false when the rule has no mapping. */
function applyRule(name: string, constraints: unknown[], schema: SchemaObject, flags: { notEmpty: boolean }): boolean {
  const c0 = constraints[0];
  switch (name) {
    case 'isString':
      schema.type = 'string';
      return true;
    case 'isInt':
      schema.type = 'integer';
      return true;
    case 'isNumber':
      schema.type = 'number';
      schema.format = 'double';
      return true;
    case 'isBoolean':
      schema.type = 'boolean';
      return true;
    case 'isArray':
      schema.type = 'array';
      return true;
    case 'isObject':
      schema.type = 'object';
      return true;
    case 'min':
      schema.minimum = Math.max(schema.minimum ?? -Infinity, c0 as number);
      return true;
    case 'max':
      schema.maximum = Math.min(schema.maximum ?? Infinity, c0 as number);
      return true;
    case 'minLength':
      schema.minLength = Math.max(schema.minLength ?? 0, c0 as number);
      return true;
    case 'maxLength':
      schema.maxLength = Math.min(schema.maxLength ?? Infinity, c0 as number);
      return true;
    case 'isNotEmpty':
      flags.notEmpty = true;
      return true;
    case 'arrayNotEmpty':
      schema.minItems = Math.max(schema.minItems ?? 0, 1);
      return true;
    case 'arrayMinSize':
      schema.minItems = Math.max(schema.minItems ?? 0, c0 as number);
      return true;
    case 'arrayMaxSize':
      schema.maxItems = Math.min(schema.maxItems ?? Infinity, c0 as number);
      return true;
    case 'isIn':
      schema.enum = [...(c0 as unknown[])];
      return true;
    case 'notEquals':
      schema.not = { enum: [c0] };
      return true;
    case 'matches': {
      const pattern = patternOf(constraints);
      if (pattern === null) return false;
      schema.pattern = schema.pattern === undefined ? pattern : bothPatterns(schema.pattern, pattern);
      return true;
    }
    default:
      return false;
  }
}

/** A value's JSON type, for a schema that has an enum but no type rule. */
function enumType(values: unknown[]): SchemaObject['type'] | undefined {
  const types = new Set(values.map((v) => (Number.isInteger(v) ? 'integer' : typeof v)));
  const [only] = types;
  return types.size === 1 && ['string', 'integer', 'number', 'boolean'].includes(only) ? (only as SchemaObject['type']) : undefined;
}

/** The type rules that only pass for one type imply (class-validator's `matches`, `maxLength` … refuse any non-string). */
function impliedType(schema: SchemaObject, items: SchemaObject, nested: boolean): void {
  if (schema.type !== undefined || nested) return;
  if (schema.enum) schema.type = enumType(schema.enum);
  else if (schema.pattern !== undefined || schema.minLength !== undefined || schema.maxLength !== undefined) schema.type = 'string';
  else if (schema.minItems !== undefined || schema.maxItems !== undefined || Object.keys(items).length > 0) schema.type = 'array';
  else if (schema.minimum !== undefined || schema.maximum !== undefined) schema.type = 'number';
}

/**
 * Whether the property is validated when `value` is what it holds, by every ValidateIf/IsOptional
 * of it (class-validator validates only when all say so), and whether a condition read another field.
 */
function validatedWhen(property: string, conditions: Condition[], value: unknown, reads: Set<string>): boolean {
  const object = new Proxy({ [property]: value } as Record<string, unknown>, {
    get(target, key) {
      if (typeof key === 'string' && key !== property) reads.add(key);
      return Reflect.get(target, key);
    },
  });
  return conditions.every((condition) => condition(object, value));
}

function deriveProperty(dto: DtoClass, property: string, rules: ValidationMetadata[], setting: SettingValue | undefined, problems: string[]): DerivedProperty {
  const schema: SchemaObject & Partial<ReferenceObject> = {};
  const items: SchemaObject = {};
  const flags = { notEmpty: false };
  const conditions: Condition[] = [];
  let nested: DtoClass | undefined;
  let defined = false;
  for (const rule of rules) {
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) conditions.push(rule.constraints[0] as Condition);
    else if (rule.type === ValidationTypes.IS_DEFINED) defined = true;
    else if (rule.type === ValidationTypes.NESTED_VALIDATION) {
      nested = defaultMetadataStorage.findTypeMetadata(dto as unknown as new () => object, property)?.typeFunction() as DtoClass | undefined;
      if (!nested) problems.push(`${dto.name}.${property}: ValidateNested without @Type(() => Class)`);
    } else if (rule.type === ValidationTypes.WHITELIST) continue;
    else if (!applyRule(rule.name ?? rule.type, rule.constraints ?? [], rule.each ? items : schema, flags)) {
      problems.push(`${dto.name}.${property}: no OpenAPI mapping for the validation rule '${rule.name ?? rule.type}'${rule.each ? ' (each)' : ''}`);
    }
  }
  if (nested) {
    const ref = { $ref: `#/components/schemas/${nested.name}` };
    if (schema.type === 'array') {
      delete items.type; // the reference says it (IsObject({ each: true }) guards the items)
      Object.assign(items, ref);
    } else Object.assign(schema, ref);
  }
  impliedType(schema, items, nested !== undefined);
  impliedType(items, {}, false);
  if (flags.notEmpty && schema.type === 'string') schema.minLength = Math.max(schema.minLength ?? 0, 1);
  if (schema.type === 'array') schema.items = items;
  if (schema.type === 'object' && !nested) schema.additionalProperties = true;
  if (schema.type === undefined && !schema.$ref) problems.push(`${dto.name}.${property}: no rule states its type (IsString, IsInt, IsIn, …)`);
  for (const limit of configuredLimitsOf(dto).filter((l) => l.property === property)) {
    if (!setting) continue;
    const max = setting(limit.setting);
    if (schema.type === 'string') schema.maxLength = Math.min(schema.maxLength ?? Infinity, max);
    else schema.maximum = Math.min(schema.maximum ?? Infinity, max);
  }
  if (Object.keys(items).length > 0 && schema.type !== 'array') problems.push(`${dto.name}.${property}: a rule with { each: true } on a field that is not IsArray()`);

  const reads = new Set<string>();
  const whenUndefined = validatedWhen(property, conditions, undefined, reads);
  const whenNull = validatedWhen(property, conditions, null, reads);
  for (const field of statedDependenciesOf(dto, property)) reads.add(field);
  if (!whenNull && schema.$ref) {
    // OpenAPI 3.0 ignores a $ref's siblings: a nullable nested object is `allOf: [$ref]` beside `nullable`.
    const ref = schema.$ref;
    for (const key of Object.keys(schema) as (keyof typeof schema)[]) delete schema[key];
    Object.assign(schema, { allOf: [{ $ref: ref }], nullable: true });
  } else if (!whenNull) schema.nullable = true;
  const dependsOn = [...reads].sort();
  // Stated in the document, so a reader (and the mismatch test) knows `required` cannot say it all.
  if (dependsOn.length > 0) Object.assign(schema, { [DEPENDS_ON]: dependsOn });
  return { schema, required: defined || (whenUndefined && dependsOn.length === 0), dependsOn, nested };
}

/**
 * The OpenAPI schema of a DTO's properties, read from its class-validator rules (the rules the
 * ValidationPipe applies), so the document states what the server checks: types (IsInt →
 * `integer`), bounds, lengths, patterns, enums, nullability (null skips the rules: IsOptional,
 * ValidateIf(v !== null)) and which fields are required. Bounds a deployment sets (ConfiguredMax)
 * take `setting`'s values. Every validated property is listed, inherited ones included.
 */
export function deriveSchema(dto: DtoClass, setting?: SettingValue): DerivedSchema {
  const rules = getMetadataStorage().getTargetValidationMetadatas(dto as unknown as new () => object, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of rules) byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  const problems: string[] = [];
  const properties: Record<string, DerivedProperty> = {};
  for (const [property, propertyRules] of byProperty) properties[property] = deriveProperty(dto, property, propertyRules, setting, problems);
  return { properties, problems };
}
