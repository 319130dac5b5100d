import { ValidateIf } from 'class-validator';

/**
 * An optional body field that always has a value once stored (a default applies when it is
 * absent): absent is fine, but `null` is not "absent", it is a value, and must pass the field's
 * rules, so it is refused naming the field. class-validator's `IsOptional` skips `null` too,
 * which let a `null` reach Postgres for a NOT NULL column: a 500 the schema-driven fuzz found
 * (`PATCH /channels/{name} {"summaryThreshold": null}`). Fields that can be "none" (description,
 * members, a time trigger, a message's topic…) keep `IsOptional`: there `null` means none.
 */
export const OptionalField = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
