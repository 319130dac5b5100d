import { ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/** One dependency's state: `up` or `down`, with what backs it (`postgres`, `embedded`, `redis`, `in-process`). */
export class DependencyHealth {
  @ApiProperty({ enum: ['up', 'down'] })
  status: 'up' | 'down';
  backend?: string;
  /** Why it is down. */
  message?: string;
}

const dependencyMap = (required: boolean): ApiPropertyOptions => ({ type: 'object', additionalProperties: { $ref: getSchemaPath(DependencyHealth) }, selfRequired: required });

/** The readiness answer (terminus' shape): every dependency by name. */
export class HealthResponse {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'] })
  status: 'ok' | 'error' | 'shutting_down';
  @ApiProperty(dependencyMap(false))
  info?: Record<string, DependencyHealth>;
  @ApiProperty(dependencyMap(false))
  error?: Record<string, DependencyHealth>;
  @ApiProperty(dependencyMap(true))
  details: Record<string, DependencyHealth>;
}

export class LivenessResponse {
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}
