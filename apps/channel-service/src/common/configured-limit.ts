import { LimitSetting, RequestLimitsConfig } from '../config/slices/request-limits-config';
import { fieldProblem } from './validation.pipe';

interface ConfiguredLimit {
  property: string;
  setting: LimitSetting;
}

const limitsByClass = new Map<object, ConfiguredLimit[]>();

/**
 * The field is at most the deployment's `setting` (a number's value, a string's length). The
 * OpenAPI document states that bound (docs/validation-schema.ts) and assertConfiguredLimits
 * enforces it with a 400 naming the field, the maximum and the setting: one declaration for both.
 */
export const ConfiguredMax =
  (setting: LimitSetting): PropertyDecorator =>
  (target, property) => {
    const owner = target.constructor;
    limitsByClass.set(owner, [...(limitsByClass.get(owner) ?? []), { property: String(property), setting }]);
  };

/** The configured limits of a DTO class, inherited ones included. */
export function configuredLimitsOf(dto: abstract new (...args: never[]) => object): ConfiguredLimit[] {
  const limits: ConfiguredLimit[] = [];
  for (let cls: unknown = dto; typeof cls === 'function' && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
    limits.push(...(limitsByClass.get(cls) ?? []));
  }
  return limits;
}

/**
 * Refuses a validated DTO whose field is over its configured maximum (a 400 naming the field, the
 * maximum and the setting to change), never cutting it down quietly: a client that reads a short
 * page as the end would stop early.
 */
export function assertConfiguredLimits(dto: object, limits: RequestLimitsConfig): void {
  for (const { property, setting } of configuredLimitsOf(dto.constructor as abstract new () => object)) {
    const value = (dto as Record<string, unknown>)[property];
    const max = limits.bySetting[setting];
    if (typeof value === 'number' && value > max) throw fieldProblem(property, `must be at most ${max} (${setting})`);
    if (typeof value === 'string' && value.length > max) throw fieldProblem(property, `must be at most ${max} characters (${setting}); got ${value.length}`);
  }
}
