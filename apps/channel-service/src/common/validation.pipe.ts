import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';
import { cacheValidationMetadata } from './validation-metadata-cache';

/** class-validator's type rules, and the range rules that say nothing more once the type is wrong. */
const TYPE_CONSTRAINTS: ReadonlySet<string> = new Set(['isInt', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isObject']);
const RANGE_CONSTRAINTS: ReadonlySet<string> = new Set(['min', 'max', 'minLength', 'maxLength', 'arrayMinSize', 'arrayMaxSize']);

/**
 * A field's problems. A value of the wrong type gets its type problem only: `"3"` for an integer
 * seq is "must be an integer number", not also "must not be less than 0" (which it is not).
 */
function problemsOf(constraints: Record<string, string>): string[] {
  const typeWrong = Object.keys(constraints).some((name) => TYPE_CONSTRAINTS.has(name));
  const messages = Object.entries(constraints)
    .filter(([name]) => !(typeWrong && RANGE_CONSTRAINTS.has(name)))
    .map(([, message]) => message);
  return [...new Set(messages)]; // two rules may say the same thing (an absent required target)
}

/** Flattens nested class-validator errors into `field: problem` entries, every bad field named. */
export function describeValidationErrors(errors: ValidationError[], prefix = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: problemsOf(e.constraints) }] : [];
    return [...own, ...describeValidationErrors(e.children ?? [], field)];
  });
}

/** Rejects unknown fields and names every bad one in the 400's message and details. */
export function apiValidationPipe(): ValidationPipe {
  cacheValidationMetadata();
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const details = describeValidationErrors(errors);
      return new BadRequestException({ message: validationMessage(details), details });
    },
  });
}

/** The message of a validation 400: every field's problems (a nested field's prefixed by its path, e.g. `messages.3: type must be one of …`). */
export function validationMessage(details: readonly { field: string; problems: readonly string[] }[]): string {
  return `Invalid request: ${details.map((d) => `${nestedPath(d.field)}${d.problems.join(', ')}`).join('; ')}`;
}

/** `messages.3.type` → `messages.3: ` (the problem text names the field itself); '' at the top level. */
function nestedPath(field: string): string {
  const dot = field.lastIndexOf('.');
  return dot < 0 ? '' : `${field.slice(0, dot)}: `;
}

/** A 400 for one field, in the validation shape: `Invalid request: <field> <problem>` (the problem reads after the field's name). */
export function fieldProblem(field: string, problem: string): BadRequestException {
  return new BadRequestException({ message: `Invalid request: ${field} ${problem}`, details: [{ field, problems: [problem] }] });
}
