const dependenciesByClass = new Map<object, { property: string; fields: string[] }[]>();

/**
 * Whether the field's value is accepted also depends on `fields`: a rule across fields that the
 * service checks (a 400 naming both), which no per-field bound can state. The OpenAPI document
 * says so with `x-depends-on` (docs/validation-schema.ts), as it does for ValidateIf conditions.
 */
export const DependsOn =
  (...fields: string[]): PropertyDecorator =>
  (target, property) => {
    const owner = target.constructor;
    dependenciesByClass.set(owner, [...(dependenciesByClass.get(owner) ?? []), { property: String(property), fields }]);
  };

/** The fields `property` of `dto` (or a class it extends) was declared to depend on. */
export function statedDependenciesOf(dto: abstract new (...args: never[]) => object, property: string): string[] {
  const fields: string[] = [];
  for (let cls: unknown = dto; typeof cls === 'function' && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
    for (const entry of dependenciesByClass.get(cls) ?? []) if (entry.property === property) fields.push(...entry.fields);
  }
  return fields;
}
