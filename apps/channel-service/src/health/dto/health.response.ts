import { ApiProperty, ApiPropertyOptions, getSchemaPath } from '@nestjs/swagger';

/** One dependency's state: `up` or `down`, with what backs it (`postgres`, `embedded`, `redis`, `in-process`). */
export class DependencyHealth {
  /** `degraded`: down, but this role serves without it (the queue on api/all); `impact` says what that means. */
  @ApiProperty({ enum: ['up', 'down', 'degraded'] })
  status: 'up' | 'down' | 'degraded';
  impact?: string;
  backend?: string;
  /** Why it is down. */
  message?: string;
}

const dependencyMap = (required: boolean): ApiPropertyOptions => ({ type: 'object', additionalProperties: { $ref: getSchemaPath(DependencyHealth) }, selfRequired: required });

/** The readiness answer (terminus' shape): every dependency by name. */
export class HealthResponse {
  @ApiProperty({ enum: ['ok', 'degraded', 'error'] })
  status: 'ok' | 'degraded' | 'error';
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
