import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** Flattens nested class-validator errors into `field: problem` entries, every bad field named. */
export function describeValidationErrors(errors: ValidationError[], prefix = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints ? [{ field, problems: Object.values(e.constraints) }] : [];
    return [...own, ...describeValidationErrors(e.children ?? [], field)];
  });
}

/** Rejects unknown fields and names every bad one in the 400's message and details. */
export function apiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const details = describeValidationErrors(errors);
      const message = details.map((d) => d.problems.join(', ')).join('; ');
      return new BadRequestException({ message: `Invalid request: ${message}`, details });
    },
  });
}
