import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthIndicatorResult } from '@nestjs/terminus';
import { Public } from '../auth/auth.decorators';
import { HealthConfig } from '../config/slices/health-config';
import { DatabaseHealthIndicator } from './database.health';
import { DependencyHealth, HealthResponse, LivenessResponse } from './dto/health.response';
import { QueueHealthIndicator } from './queue.health';

/** A dependency this role can serve without: reported, but readiness stays 200. */
export const DEGRADED = 'degraded';

/** What a degraded queue means for callers, said in the readiness answer. */
export const DEGRADED_QUEUE_IMPACT = 'posts are accepted; summaries catch up once the queue is back';

type DependencyStatus = { status: string; message?: string; [key: string]: unknown };

/** The readiness answer: terminus' shape, with `degraded` for an optional dependency that is down. */
export interface ReadinessResult {
  status: 'ok' | 'degraded' | 'error';
  info: Record<string, DependencyStatus>;
  error: Record<string, DependencyStatus>;
  details: Record<string, DependencyStatus>;
}

const READY_EXAMPLE = {
  status: 'ok',
  info: { database: { status: 'up', backend: 'postgres' }, queue: { status: 'up', backend: 'redis' } },
  error: {},
  details: { database: { status: 'up', backend: 'postgres' }, queue: { status: 'up', backend: 'redis' } },
};

/**
 * `/health` (readiness) and `/health/live` (liveness). No token: probes and load balancers call
 * these. Readiness asks "can this instance do its job?": an `api`/`all` instance accepts posts
 * with Postgres alone (summaries catch up through the sweep once Redis is back), so Redis down is
 * a 200 with the queue `degraded`; a `worker` cannot work without its queue, so there it is a 503.
 * Pulling every API pod out of a balancer during a Redis outage would turn it into a full outage.
 */
@ApiTags('operations')
@ApiExtraModels(DependencyHealth)
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: DatabaseHealthIndicator,
    private readonly queue: QueueHealthIndicator,
    private readonly config: HealthConfig,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Readiness: each dependency (database, queue) with its status' })
  @ApiOkResponse({
    description: 'Ready. On the api and all roles an unreachable Redis is reported as `degraded` (posts are accepted, summaries catch up later)',
    type: HealthResponse,
    example: READY_EXAMPLE,
  })
  @ApiServiceUnavailableResponse({ description: 'Postgres (or, on a worker, Redis) is down; `details` says which' })
  async ready(): Promise<ReadinessResult> {
    const queueRequired = this.config.role === 'worker';
    const checks: HealthIndicatorResult[] = await Promise.all([this.database.check(), this.queue.check()]);
    const result: ReadinessResult = { status: 'ok', info: {}, error: {}, details: {} };
    for (const check of checks) {
      for (const [key, raw] of Object.entries(check)) {
        const optional = key !== 'database' && !queueRequired;
        const value: DependencyStatus = raw.status === 'down' && optional ? { ...raw, status: DEGRADED, impact: DEGRADED_QUEUE_IMPACT } : { ...raw };
        result.details[key] = value;
        if (value.status === 'up') result.info[key] = value;
        else result.error[key] = value;
        if (value.status === DEGRADED && result.status === 'ok') result.status = 'degraded';
        if (value.status === 'down') result.status = 'error';
      }
    }
    if (result.status !== 'error') return result;
    const down = Object.entries(result.details).filter(([, v]) => v.status === 'down');
    throw new ServiceUnavailableException({
      message: `Not ready: ${down.map(([key, v]) => `${key} is down${v.message ? ` (${v.message})` : ''}`).join('; ')}`,
      details: result.details,
    });
  }

  /** Liveness: answers as long as the process serves HTTP; checks no dependency. */
  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process is serving requests' })
  @ApiOkResponse({ description: 'The process is alive', type: LivenessResponse })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
